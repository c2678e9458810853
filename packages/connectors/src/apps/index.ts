import type { ConnectorDefinition } from '../types.ts';
import { airtable } from './airtable.ts';
import { asana } from './asana.ts';
import { calendly } from './calendly.ts';
import { clickup } from './clickup.ts';
import { discord } from './discord.ts';
import { dropbox } from './dropbox.ts';
import { freshdesk } from './freshdesk.ts';
import { front } from './front.ts';
import { github } from './github.ts';
import { gmail } from './gmail.ts';
import { googleCalendar } from './google-calendar.ts';
import { googleDrive } from './google-drive.ts';
import { googleSheets } from './google-sheets.ts';
import { hubspot } from './hubspot.ts';
import { intercom } from './intercom.ts';
import { jira } from './jira.ts';
import { linear } from './linear.ts';
import { mailchimp } from './mailchimp.ts';
import { mailgun } from './mailgun.ts';
import { microsoftTeams } from './microsoft-teams.ts';
import { monday } from './monday.ts';
import { notion } from './notion.ts';
import { outlook } from './outlook.ts';
import { pipedrive } from './pipedrive.ts';
import { postmark } from './postmark.ts';
import { quickbooks } from './quickbooks.ts';
import { salesforce } from './salesforce.ts';
import { sendgrid } from './sendgrid.ts';
import { shopify } from './shopify.ts';
import { slack } from './slack.ts';
import { stripe } from './stripe.ts';
import { trello } from './trello.ts';
import { twilio } from './twilio.ts';
import { typeform } from './typeform.ts';
import { webflow } from './webflow.ts';
import { xero } from './xero.ts';
import { zendesk } from './zendesk.ts';
import { zohoCrm } from './zoho-crm.ts';
import { zoom } from './zoom.ts';

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
  microsoftTeams,
  outlook,
  googleCalendar,
  googleDrive,
  dropbox,
  zoom,
  trello,
  clickup,
  monday,
  pipedrive,
  zohoCrm,
  quickbooks,
  xero,
  calendly,
  typeform,
  mailgun,
  postmark,
  freshdesk,
  front,
  webflow,
];
