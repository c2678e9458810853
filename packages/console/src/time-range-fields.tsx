import { navigate } from './router.tsx';

/**
 * The end of a list page's filter form: a From and To time (UTC, as `datetime-local` values named `from` and
 * `to`), then Apply and a Clear that goes back to `clearTo` with no filter.
 */
export function TimeRangeFields(props: { from?: string; to?: string; clearTo: string }) {
  return (
    <>
      <label>
        From (UTC)
        <input name="from" type="datetime-local" defaultValue={props.from ?? ''} />
      </label>
      <label>
        To (UTC)
        <input name="to" type="datetime-local" defaultValue={props.to ?? ''} />
      </label>
      <div className="actions">
        <button type="submit">Apply filters</button>
        <button type="button" className="secondary" onClick={() => navigate(props.clearTo)}>
          Clear
        </button>
      </div>
    </>
  );
}
