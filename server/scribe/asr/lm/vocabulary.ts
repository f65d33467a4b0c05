/** The project's vocabulary (vocab/, owned by the structurer) as the language-model generator takes it. */
import { diagnosisNames, dictationPhrases, drugNames, investigationNames, symptomNames } from '../../../clinical-nlp/vocab/index.js';
import type { SpeechVocabulary } from './index.js';

export function projectVocabulary(): SpeechVocabulary {
  return {
    drugs: drugNames(),
    diagnoses: diagnosisNames(),
    investigations: investigationNames(),
    symptoms: symptomNames(),
    phrases: dictationPhrases(),
  };
}
