import { jsonTextTooDeep, MAX_JSON_DEPTH } from '@inlay/contract';
import express, { type RequestHandler } from 'express';
import { HttpProblem } from './problem.ts';

/** The problem a body nested deeper than MAX_JSON_DEPTH gets: 400, naming the rule. */
export const tooDeep = () =>
  new HttpProblem(400, 'invalid_request', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, {
    errors: [
      { field: 'body', rule: 'max_depth', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` },
    ],
  });

/**
 * express.json with a nesting limit: the raw text is scanned before parsing, so a body thousands of levels
 * deep is a 400 instead of a RangeError in whatever walks it later (serialising the run's trigger, say).
 */
export function jsonBody(limit: string): RequestHandler {
  return express.json({
    limit,
    verify: (_req, _res, buf) => {
      if (jsonTextTooDeep(buf)) throw tooDeep();
    },
  });
}
