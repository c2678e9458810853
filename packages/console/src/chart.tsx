import type { ExecutionStats } from '@inlay/client';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

const SERIES = [
  { key: 'succeeded', label: 'Succeeded', color: '--ok' },
  { key: 'failed', label: 'Failed', color: '--bad' },
  { key: 'running', label: 'Running', color: '--info' },
  { key: 'queued', label: 'Queued', color: '--muted' },
] as const;

/** Runs per bucket by status, drawn with uPlot; the same figures are in the table below it. */
export function RunsChart({ stats }: { stats: ExecutionStats }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const css = getComputedStyle(el);
    const color = (v: string) => css.getPropertyValue(v).trim() || '#888';
    const axis = {
      stroke: color('--fg'),
      grid: { stroke: color('--line') },
      ticks: { stroke: color('--line') },
    };
    const xs = stats.buckets.map((b) => Date.parse(b.start) / 1000);
    const data: uPlot.AlignedData = [xs, ...SERIES.map((s) => stats.buckets.map((b) => b[s.key]))];
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
        axes: [axis, { ...axis, size: 48 }],
        series: [
          { label: 'Time (UTC)' },
          ...SERIES.map((s) => ({ label: s.label, stroke: color(s.color), width: 2, points: { size: 5 } })),
        ],
        legend: { live: false },
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(280, el.clientWidth), height: 240 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [stats]);
  return <div ref={box} className="chart" role="img" aria-label={chartLabel(stats)} />;
}

function chartLabel(s: ExecutionStats) {
  const t = s.totals;
  return `Runs per ${s.bucket} from ${s.from} to ${s.to}: ${t.succeeded} succeeded, ${t.failed} failed, ${t.running} running, ${t.queued} queued`;
}
