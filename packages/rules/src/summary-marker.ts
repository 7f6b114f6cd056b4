/** The text render puts before a summary's brief (`[Summary] …`); the rules count it in a request's budget. */
export const SUMMARY_MARKER = '[Summary] ';
