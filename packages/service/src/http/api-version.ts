import { API_VERSIONS, CURRENT_API_VERSION } from '@inlay/contract';
import type { RequestHandler } from 'express';
import { HttpProblem } from './problem.ts';

/** A missing `x-api-version` means the current one; an unknown one is a 400 that lists the supported ones. */
export const apiVersion: RequestHandler = (req, res, next) => {
  const asked = req.headers['x-api-version'];
  const known = typeof asked === 'string' && (API_VERSIONS as readonly string[]).includes(asked);
  res.set('x-api-version', known ? asked : CURRENT_API_VERSION);
  if (asked !== undefined && !known) {
    const shown = String(asked).slice(0, 40);
    throw new HttpProblem(
      400,
      'unsupported_version',
      `x-api-version "${shown}" is not supported; use one of: ${API_VERSIONS.join(', ')}`,
      {
        errors: [
          {
            field: 'header.x-api-version',
            rule: 'enum',
            message: `must be one of ${API_VERSIONS.join(', ')}`,
          },
        ],
        extra: { supportedVersions: [...API_VERSIONS] },
      },
    );
  }
  next();
};
