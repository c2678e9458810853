import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { HttpProblem } from './problem.ts';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The problem for a request Node's HTTP parser refused before any route saw it. */
function problemFor(err: NodeJS.ErrnoException): HttpProblem {
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return new HttpProblem(
      431,
      'invalid_request',
      'The request line and headers together exceed 16 KB: send a shorter URL or fewer, shorter headers (a long query belongs in a body).',
      {
        errors: [
          { field: 'headers', rule: 'max_size', message: 'must be at most 16 KB with the request line' },
        ],
      },
    );
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new HttpProblem(408, 'invalid_request', 'The request did not arrive in time; send it again.');
  return new HttpProblem(
    400,
    'invalid_request',
    'The request is not valid HTTP/1.1 (its request line, a header or its framing could not be read).',
  );
}

/**
 * Answers a request that Node's HTTP parser refuses (an oversized request line or headers, a malformed request, a
 * request that never finished) with a problem+json body, as every other refusal is answered, instead of Node's
 * bare status line. The connection is closed after it.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const problem = problemFor(err);
    const body = JSON.stringify(problem.toBody());
    socket.end(
      `HTTP/1.1 ${problem.status} ${REASONS[problem.status]}\r\n` +
        'content-type: application/problem+json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        'connection: close\r\n\r\n' +
        body,
    );
  });
}
