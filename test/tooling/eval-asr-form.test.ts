import { describe, expect, it } from 'vitest';
import { spokenInteger, spokenNumber, toAsrForm } from '../../eval/asr-form.js';

describe('toAsrForm: a written transcript as a recogniser gives it', () => {
  it('lower-cases and drops punctuation, keeping in-word apostrophes', () => {
    expect(toAsrForm('Cough, cold; "mild" wheeze! She\'s better (today)? Don\'t worry.')).toBe(
      "cough cold mild wheeze she's better today don't worry",
    );
    expect(toAsrForm("the 'quoted' word")).toBe('the quoted word');
  });

  it('reads 100-999 the way doctors dictate them, and larger numbers plainly', () => {
    expect(spokenInteger(650)).toBe('six fifty');
    expect(spokenInteger(120)).toBe('one twenty');
    expect(spokenInteger(101)).toBe('one oh one');
    expect(spokenInteger(300)).toBe('three hundred');
    expect(spokenInteger(45)).toBe('forty five');
    expect(spokenInteger(2500)).toBe('two thousand five hundred');
    expect(toAsrForm('Tab Dolo 650 mg, 1,500 mg daily, 60000 IU weekly')).toBe(
      'tab dolo six fifty mg one thousand five hundred mg daily sixty thousand iu weekly',
    );
  });

  it('reads decimals digit by digit, with the leading zero only when written', () => {
    expect(spokenNumber('98.6')).toBe('ninety eight point six');
    expect(spokenNumber('0.25')).toBe('zero point two five');
    expect(spokenNumber('.5')).toBe('point five');
    expect(toAsrForm('Temp 102.4 F, levothyroxine 0.05 mg, and .5 ml drops.')).toBe(
      'temp one oh two point four f levothyroxine zero point zero five mg and point five ml drops',
    );
  });

  it('reads pressures, dosing patterns, ranges, times and ordinals', () => {
    expect(toAsrForm('BP 142/88.')).toBe('bp one forty two over eighty eight');
    expect(toAsrForm('Tab X 1-0-1 and 0-0-1.')).toBe('tab x one zero one and zero zero one');
    expect(toAsrForm('8-10 episodes, 2 – 3 times')).toBe('eight to ten episodes two to three times');
    expect(toAsrForm('at 7:30 and 9:05 and 6:00')).toBe('at seven thirty and nine oh five and six');
    expect(toAsrForm('her 2nd visit, the 3rd day, 21st week, 40th percentile')).toBe(
      'her second visit the third day twenty first week fortieth percentile',
    );
    expect(toAsrForm('readings in the 140s, lows in the 70s')).toBe('readings in the one forties lows in the seventies');
  });

  it('splits digits out of words and spells symbols', () => {
    expect(toAsrForm('HbA1c 7.2%, vitamin B12 and D3, G3P2, 500mg')).toBe(
      'hba one c seven point two percent vitamin b twelve and d three g three p two five hundred mg',
    );
    expect(toAsrForm('Temperature 38.5°C, 101°F, 2+ oedema, salt & water, a + b')).toBe(
      'temperature thirty eight point five degrees celsius one oh one degrees fahrenheit two plus oedema salt and water a plus b',
    );
    expect(toAsrForm('PT/INR, follow-up at 10 a.m. e.g. Monday')).toBe('pt inr follow up at ten am eg monday');
  });

  it('keeps line breaks and speaker labels, and drops the colon of anything else', () => {
    expect(toAsrForm('Doctor: Any fever?\nMother: Yes, 101.\nAssessment: viral fever.')).toBe(
      'doctor: any fever\nmother: yes one oh one\nassessment viral fever',
    );
  });

  it('keeps spoken voice commands and leaves recogniser-form text unchanged', () => {
    const spoken = 'fever since two days comma cough full stop next line tab paracetamol six fifty sos new paragraph diagnosis colon viral fever';
    expect(toAsrForm(spoken)).toBe(spoken);
    const turns = "how are you\nnot good doctor i can't sleep\nsince when\nabout two weeks";
    expect(toAsrForm(turns)).toBe(turns);
  });
});
