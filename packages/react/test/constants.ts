/** The bot token the fake Discord accepts. */
export const GOOD_TOKEN = 'bot-token-good';
