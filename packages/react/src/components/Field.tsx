import type { ConfigField, OptionItem } from '@inlay/client';
import { useId } from 'react';
import { useInlay } from '../hooks/useInlay.ts';
import { useOptions } from '../hooks/useOptions.ts';
import { cx } from '../utils.ts';
import { ErrorMessage } from './States.tsx';

export type FieldInput = string | boolean | string[] | undefined;

export interface FieldProps {
  field: ConfigField;
  value: FieldInput;
  onChange: (v: FieldInput) => void;
  error?: string;
  /** Connector and credential that list a dynamic `options.source`. */
  connector?: string;
  credentialId?: string;
  className?: string;
}

/** One config field rendered by its type, with its label, required mark, description and inline error. */
export function Field({ field, value, onChange, error, connector, credentialId, className }: FieldProps) {
  const { t } = useInlay();
  const id = useId();
  const source = field.options && 'source' in field.options ? field.options.source : undefined;
  const dynamic = useOptions(source && connector, source, credentialId);
  const options: OptionItem[] =
    field.options && 'values' in field.options ? field.options.values : (dynamic.data ?? []);
  const describedBy = cx(field.description && `${id}-d`, error && `${id}-e`) || undefined;
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'aria-required': field.required || undefined,
  };
  const label = (
    <>
      {field.displayName}
      {field.required && (
        <>
          <span className="inlay-required" aria-hidden="true">
            {' *'}
          </span>
          <span className="inlay-sr-only"> ({t('required')})</span>
        </>
      )}
    </>
  );

  let control: React.ReactNode;
  switch (field.type) {
    case 'textarea':
      control = (
        <textarea
          {...common}
          className="inlay-input"
          rows={3}
          value={(value as string) ?? ''}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'boolean':
      control = (
        <input
          {...common}
          type="checkbox"
          className="inlay-check"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
      break;
    case 'select':
      control = (
        <select
          {...common}
          className="inlay-input"
          value={(value as string) ?? ''}
          aria-busy={dynamic.isFetching || undefined}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">{dynamic.isFetching ? t('loading') : t('choose')}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'multiselect': {
      const picked = Array.isArray(value) ? value : [];
      return (
        <fieldset
          className={cx('inlay-field', className)}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
        >
          <legend className="inlay-label">{label}</legend>
          {dynamic.isFetching && <p className="inlay-muted">{t('loading')}</p>}
          {options.map((o) => (
            <label key={o.value} className="inlay-option">
              <input
                type="checkbox"
                className="inlay-check"
                checked={picked.includes(o.value)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...picked, o.value] : picked.filter((p) => p !== o.value))
                }
              />
              {o.label}
            </label>
          ))}
          <Extra id={id} field={field} error={error} failed={dynamic.error} />
        </fieldset>
      );
    }
    default:
      control = (
        <input
          {...common}
          type="text"
          inputMode={field.type === 'number' ? 'decimal' : undefined}
          className="inlay-input"
          value={(value as string) ?? ''}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className={cx('inlay-field', field.type === 'boolean' && 'inlay-field-inline', className)}>
      <label className="inlay-label" htmlFor={id}>
        {label}
      </label>
      {control}
      <Extra id={id} field={field} error={error} failed={dynamic.error} />
    </div>
  );
}

function Extra({
  id,
  field,
  error,
  failed,
}: {
  id: string;
  field: ConfigField;
  error?: string;
  failed: unknown;
}) {
  const { t } = useInlay();
  return (
    <>
      {field.description && (
        <p id={`${id}-d`} className="inlay-help">
          {field.description}
        </p>
      )}
      {failed != null && <ErrorMessage error={failed} wrap={(error) => t('optionsFailed', { error })} />}
      {error && (
        <p id={`${id}-e`} className="inlay-field-error">
          {error}
        </p>
      )}
    </>
  );
}
