import type { IncomingMessage } from 'node:http';
import { NetworkError, type SdkError } from '../errors.js';
import { apiErrorOf } from '../transport.js';

/** Largest refusal body read; the server's error bodies are far smaller. */
const MAX_REFUSAL_BYTES = 16_384;

/** A refused upgrade as the API error its body names (a 401 told from a 400), or a network error if it cannot be read. */
export async function refusalError(response: IncomingMessage, shownUrl: string): Promise<SdkError> {
  let text: string;
  try {
    text = await readRefusal(response);
  } catch (cause) {
    return new NetworkError(shownUrl, cause);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
  const answer = new Response(text, { status: response.statusCode ?? 500, headers });
  return apiErrorOf(answer, text, headers.get('x-request-id') ?? undefined, shownUrl);
}

function readRefusal(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REFUSAL_BYTES) chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}
