import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { CodeBlock } from './code-blocks.ts';

/**
 * The options a reader's strict project would use: strict mode, the DOM for browser snippets, Node's types
 * for server ones, and the workspace packages resolved to their sources (the `@inlay/source` condition), so
 * no build is needed. Every block is its own module.
 */
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  customConditions: ['@inlay/source'],
  allowImportingTsExtensions: true,
  jsx: ts.JsxEmit.ReactJSX,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  esModuleInterop: true,
  skipLibCheck: true,
  resolveJsonModule: true,
};

/**
 * Type-checks the blocks together in one program (written under `dir`, which must sit inside a package whose
 * node_modules resolve what the blocks import) and returns each block's own diagnostics, as
 * `line:column message` relative to the block, keyed by `file:line`.
 */
export function typecheckBlocks(blocks: CodeBlock[], dir: string): Map<string, string[]> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const paths = new Map<string, CodeBlock>();
  for (const b of blocks) {
    const path = join(dir, `${b.file.replace(/[/.]/g, '_')}_${b.line}.${b.lang}`);
    writeFileSync(path, b.code);
    paths.set(path, b);
  }
  const program = ts.createProgram([...paths.keys()], OPTIONS);
  const result = new Map<string, string[]>(blocks.map((b) => [`${b.file}:${b.line}`, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const block = d.file && paths.get(d.file.fileName);
    if (!d.file || !block || d.start === undefined) continue;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    result
      .get(`${block.file}:${block.line}`)
      ?.push(`${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  }
  return result;
}
