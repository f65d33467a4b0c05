import type { Language } from '../../preload/contract';

/** The dictation languages, in the order the language list shows them, with their names. */
export const LANGUAGES: [Language, string][] = [
  ['en-IN', 'English (India)'], ['en-US', 'English (US)'], ['hi', 'Hindi'], ['bn', 'Bengali'], ['gu', 'Gujarati'], ['kn', 'Kannada'],
  ['ml', 'Malayalam'], ['mr', 'Marathi'], ['pa', 'Punjabi'], ['ta', 'Tamil'], ['te', 'Telugu'],
];

export const LANGUAGE_NAMES = new Map<string, string>(LANGUAGES);
