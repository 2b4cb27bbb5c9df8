// The pages as the OpenAPI document lists them: every route the app serves is documented there, HTML and
// SVG answers included, so a reader of the document sees the whole surface.
import { RANKING_RULES } from '@mcp-atlas/reliability/rules';
import { SERVER_ID_PATTERN } from '../data/paths.js';
import { SEARCH_LIMIT_TEXT } from '../http/rule-text.js';
import { BADGE_LABEL_MAX_CHARS, BADGE_STYLES } from './badge.js';
import { formatCount, formatPercent } from './format.js';
import { METHODOLOGY_AREAS } from './methodology-doc.js';
import { SERVERS_PER_PAGE } from './servers-page.js';

type JsonObject = Record<string, unknown>;

const html = (description: string): JsonObject => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
const idParameter = (description: string): JsonObject => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', pattern: SERVER_ID_PATTERN.source },
});

/** The `label` query of every badge: the left-hand text in place of the default; empty draws the message alone. */
export const BADGE_LABEL_PARAMETER: JsonObject = {
  name: 'label',
  in: 'query',
  required: false,
  description: `The left-hand text instead of the default (at most ${BADGE_LABEL_MAX_CHARS} characters; empty leaves it out).`,
  schema: { type: 'string' },
};

/** The `style` query of an SVG badge, in shields.io's names. */
export const BADGE_STYLE_PARAMETER: JsonObject = {
  name: 'style',
  in: 'query',
  required: false,
  description: 'How the SVG badge is drawn (default flat); the JSON answer leaves the style to shields.io.',
  schema: { type: 'string', enum: [...BADGE_STYLES] },
};

/** The OpenAPI path items of the HTML pages, the badge and the widget. */
export const PAGE_OPENAPI_PATHS: Record<string, JsonObject> = {
  '/': {
    get: {
      operationId: 'statePage',
      summary:
        'The state page: servers by letter on the newest day, the uptime distribution, the day’s changes and rises in risk, the latest sealed root and how to verify it.',
      responses: { '200': html('The page.') },
    },
  },
  '/servers': {
    get: {
      operationId: 'serversPage',
      summary: `Every watched server with its status and uptime, ${formatCount(SERVERS_PER_PAGE)} a page.`,
      parameters: [
        {
          name: 'page',
          in: 'query',
          required: false,
          description: 'The page, from 1.',
          schema: { type: 'string', pattern: '^\\d{1,6}$' },
        },
      ],
      responses: { '200': html('The page.'), '400': html('The page number is not one of the list’s pages.') },
    },
  },
  '/servers/{id}': {
    get: {
      operationId: 'serverPage',
      summary:
        'One server’s page: status, daily letters, uptime, success chance, stability, hour profile, rating, findings, tools, change days and the embed snippets.',
      parameters: [idParameter('The server id.')],
      responses: { '200': html('The page.'), '404': html('No server has this id.') },
    },
  },
  '/reliable': {
    get: {
      operationId: 'reliablePage',
      summary: `The most reliable servers of each category, with the top-${formatPercent(100 / RANKING_RULES.topPlacesDivisor)} marks.`,
      responses: { '200': html('The page.') },
    },
  },
  '/search': {
    get: {
      operationId: 'searchPage',
      summary: 'The tool search as a page: a form, and the results of GET /api/toolsearch for its query.',
      parameters: [
        {
          name: 'q',
          in: 'query',
          required: false,
          description: 'What the tool should do; without it the page shows the empty form.',
          schema: { type: 'string' },
        },
        {
          name: 'risk',
          in: 'query',
          required: false,
          description: 'read, change or any (default).',
          schema: { type: 'string', enum: ['read', 'change', 'any'] },
        },
        { name: 'limit', in: 'query', required: false, description: SEARCH_LIMIT_TEXT, schema: { type: 'string' } },
      ],
      responses: { '200': html('The page.'), '400': html('The query cannot be answered; the page says why.') },
    },
  },
  '/methodology': {
    get: {
      operationId: 'methodologyPage',
      summary:
        'The methodology’s contents page, rendered, with the version this service applies and a link to each area.',
      responses: { '200': html('The page.'), '503': html('The methodology text could not be found or read.') },
    },
  },
  '/methodology/{area}': {
    get: {
      operationId: 'methodologyAreaPage',
      summary: 'One area of the methodology, rendered, with the version this service applies.',
      parameters: [
        {
          name: 'area',
          in: 'path',
          required: true,
          description: `One of ${METHODOLOGY_AREAS.join(', ')}.`,
          schema: { type: 'string', enum: [...METHODOLOGY_AREAS] },
        },
      ],
      responses: {
        '200': html('The page.'),
        '404': html('The methodology has no such area.'),
        '503': html('The area’s text could not be found or read.'),
      },
    },
  },
  '/badge/{file}': {
    get: {
      operationId: 'badge',
      summary:
        'A server’s shown status and uptime figure (the status, a vertical bar, then the uptime percentage of the status window): `<id>.svg` is a shields-style SVG badge, `<id>.json` the same as a shields.io endpoint answer (schemaVersion 1, label, message, color, cacheSeconds).',
      parameters: [
        {
          name: 'file',
          in: 'path',
          required: true,
          description: 'The server id followed by .svg or .json.',
          schema: { type: 'string' },
        },
        BADGE_LABEL_PARAMETER,
        BADGE_STYLE_PARAMETER,
      ],
      responses: {
        '200': {
          description:
            'The badge, or its endpoint answer; "unknown" in grey for an id no server has (200, so an image proxy shows it).',
          content: {
            'image/svg+xml': { schema: { type: 'string' } },
            'application/json': { schema: { type: 'object' } },
          },
        },
        '400': {
          description: 'A badge naming the styles, for a style it does not know.',
          content: { 'image/svg+xml': { schema: { type: 'string' } } },
        },
      },
    },
  },
  '/widget/{id}': {
    get: {
      operationId: 'widget',
      summary: 'A small page with a server’s status, uptime and recent letters, to embed in an iframe.',
      parameters: [idParameter('The server id.')],
      responses: { '200': html('The widget.'), '404': html('No server has this id.') },
    },
  },
  '/owner': {
    get: {
      operationId: 'ownerForm',
      summary: 'The owner view’s form: a server id and its access token (POST /api/owners/access).',
      responses: { '200': html('The form.') },
    },
    post: {
      operationId: 'ownerPage',
      summary:
        'The owner view as a page, for the holder of the server’s access token: alerts, demand, agents’ reports, changes and the score.',
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['server', 'token'],
              properties: { server: { type: 'string' }, token: { type: 'string' } },
            },
          },
        },
      },
      responses: {
        '200': html('The owner view (`Cache-Control: no-store`).'),
        '400': html('A field is missing.'),
        '401': html('The token is not this server’s current access token: the form again.'),
      },
    },
  },
};
