// The quality-score pages as the OpenAPI document lists them: the leaderboard page and the grade badge. Kept
// beside the other page paths (openapi-paths.ts), and joined to them in http/openapi.ts.
import { SERVER_ID_PATTERN } from '../data/paths.js';
import { LEADERBOARD_PER_PAGE } from './leaderboard-page.js';
import { BADGE_LABEL_PARAMETER, BADGE_STYLE_PARAMETER } from './openapi-paths.js';

type JsonObject = Record<string, unknown>;

const html = (description: string): JsonObject => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
const svg = (description: string): JsonObject => ({
  description,
  content: { 'image/svg+xml': { schema: { type: 'string' } } },
});

const SERVER_ID_PARAMETER: JsonObject = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The server id.',
  schema: { type: 'string', pattern: SERVER_ID_PATTERN.source },
};

/** The OpenAPI path items of /leaderboard and the grade badge, /badge/{id}/grade.svg and .json. */
export const SCORE_PAGE_OPENAPI_PATHS: Record<string, JsonObject> = {
  '/leaderboard': {
    get: {
      operationId: 'leaderboardPage',
      summary: `The quality-score leaderboard, ${LEADERBOARD_PER_PAGE} servers a page: by tier, then composite, with the grade as "A (5/5)", the tier and the flags.`,
      parameters: [
        {
          name: 'page',
          in: 'query',
          required: false,
          description: 'The page, from 1 (default 1).',
          schema: { type: 'string', pattern: '^\\d{1,6}$' },
        },
      ],
      responses: { '200': html('The page.'), '400': html('The page number is not one of the pages.') },
    },
  },
  '/badge/{id}/grade.svg': {
    get: {
      operationId: 'gradeBadge',
      summary: 'A shields-style SVG badge with a server’s quality grade and its dimensions scored, such as "A (5/5)".',
      parameters: [SERVER_ID_PARAMETER, BADGE_LABEL_PARAMETER, BADGE_STYLE_PARAMETER],
      responses: {
        '200': svg(
          'The badge; "not scored yet" in grey for a server without a score, "unknown" for an id no server has (200, so an image proxy shows it).',
        ),
        '400': svg('A badge naming the styles, for a style it does not know.'),
      },
    },
  },
  '/badge/{id}/grade.json': {
    get: {
      operationId: 'gradeBadgeEndpoint',
      summary:
        'The grade badge as a shields.io endpoint answer (schemaVersion 1, label, message, color, cacheSeconds).',
      parameters: [SERVER_ID_PARAMETER, BADGE_LABEL_PARAMETER],
      responses: {
        '200': { description: 'The endpoint answer.', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  },
};
