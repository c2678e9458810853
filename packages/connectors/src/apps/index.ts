import type { ConnectorDefinition } from '../types.ts';
import { airtable } from './airtable.ts';
import { asana } from './asana.ts';
import { discord } from './discord.ts';
import { github } from './github.ts';
import { gmail } from './gmail.ts';
import { googleSheets } from './google-sheets.ts';
import { hubspot } from './hubspot.ts';
import { intercom } from './intercom.ts';
import { jira } from './jira.ts';
import { linear } from './linear.ts';
import { mailchimp } from './mailchimp.ts';
import { notion } from './notion.ts';
import { salesforce } from './salesforce.ts';
import { sendgrid } from './sendgrid.ts';
import { shopify } from './shopify.ts';
import { slack } from './slack.ts';
import { stripe } from './stripe.ts';
import { twilio } from './twilio.ts';
import { zendesk } from './zendesk.ts';

/** App connectors, in catalog order. */
export const apps: readonly ConnectorDefinition[] = [
  slack,
  hubspot,
  salesforce,
  github,
  jira,
  linear,
  notion,
  airtable,
  googleSheets,
  gmail,
  stripe,
  shopify,
  zendesk,
  intercom,
  asana,
  mailchimp,
  discord,
  twilio,
  sendgrid,
];
