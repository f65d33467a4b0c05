/** Follow-up: the return visit stated at this one, in days; conditional and relative returns are not follow-ups. */
import { describe, expect, it } from 'vitest';
import type { Duration } from '../../server/clinical-nlp/facts.js';
import { extractFollowUp } from '../../server/clinical-nlp/followup.js';
import { buildDoc } from '../../server/clinical-nlp/sections.js';

const DAYS: Record<Duration['unit'], number> = { day: 1, week: 7, month: 30, year: 365 };
const days = (text: string, mode?: string): number | undefined => {
  const f = extractFollowUp(buildDoc(text, { mode }));
  return f ? Math.round(f.after.value * DAYS[f.after.unit]) : undefined;
};

function table(rows: [string, number | undefined][], mode?: string): void {
  for (const [text, expected] of rows) it(`${text.replace(/\n/g, ' / ')} → ${expected ?? 'none'}`, () => expect(days(text, mode)).toBe(expected));
}

describe('a stated return', () => {
  table([
    ['She was advised to return to the office in three months for followup.', 90],
    ['I will see her yearly or as needed.', 365],
    ['Come back in four, five days.', 5],
    ['Recheck labs in 6 weeks and follow up in 3 months.', 90],
    ['Recheck in 6 weeks.', 42],
    ['Review in 3 to 5 days.', 5],
    ['Meantime, rechecking in three weeks for her postpartum check.', 21],
    ['Follow up here in two weeks or sooner if any other problems.', 14],
    ['Parents will call me in two weeks. I will see him for medication review in four weeks.', 28],
    ['Follow up in 3 weeks after the ultrasound.', 21],
    ['Review after forty eight hours.', 2],
    ['Come back in a fortnight.', 14],
    ["Make an appointment for two weeks' time.", 14],
    ['Book an appointment for a month from now.', 30],
    ['Come back for 2 days of dressings.', undefined],
    ['See me again in a week or two.', 14],
    ['Next appointment in six weeks.', 42],
    ['RTC in 3 months.', 90],
    ["Let's catch up again in a couple of weeks.", 14],
  ]);
});

describe('seen face to face today, from a remote consultation', () => {
  table([
    ['I would like you to be assessed in one of our clinics today.', 0],
    ["I'll ask the team to book you a face-to-face appointment, and please make sure you are seen in person today.", 0],
  ]);
});

describe('a booking in person today, in answer to the patient', () => {
  table(
    [
      ["Doctor: you should be examined, can you get to our clinic?\nPatient: yes, I can come in today.\nDoctor: fine, I will ask the team to book you in.", 0],
      ["Doctor: you should be examined, can you get to our clinic?\nPatient: yes, next week is fine.\nDoctor: fine, I will ask the team to book you in.", undefined],
    ],
    'consultation',
  );
});

describe("a report's shorthand", () => {
  table([
    ['PLAN: RTC 3 months.', 90],
    ['PLAN: F/U 2 weeks.', 14],
    ['PLAN: Follow-up 6 weeks with labs.', 42],
    ['HPI: He was last seen for follow up 3 months ago.', undefined],
    ['PLAN: follow up 2 weeks after the MRI.', undefined],
  ]);
});

describe('not a follow-up', () => {
  table([
    ['Arrange a GP follow-up a week after you have had the tests.', undefined],
    ['We will follow up after the sleep study.', undefined],
    ['We will follow up as scheduled.', undefined],
    ['If she is not better in five days, follow up with her doctor.', undefined],
    ['Come back in a week if it is no better.', undefined],
    ['I will refer you to ENT. Go to A and E if the bleeding does not stop.', undefined],
    ['Follow up with her PCP in one week for a recheck.', undefined],
    ['The physio will see you in 3 days.', undefined],
    ['Follow up with me in one week.', 7],
  ]);
});

describe('conditions in recogniser form (no punctuation)', () => {
  table(
    [
      ["Doctor: let's see how the next few days go and if it's still not getting better come back and see me next week\nPatient: ok", undefined],
      ['Doctor: go to the er if the breathing gets worse recheck in one week\nPatient: okay', 7],
      ["Doctor: so if you don't have any other questions i'm gonna see you in about three weeks\nPatient: thank you", 21],
      ['Doctor: go to the emergency room if you get worse. Review after five days.\nPatient: okay', 5],
      ['Doctor: come back in four five days\nPatient: okay', 5],
    ],
    'consultation',
  );
});

describe('who says it', () => {
  it('takes no return from the patient in a consultation', () => {
    expect(days("Doctor: how have you been?\nPatient: fine, I'll come back in a week.\nDoctor: good", 'consultation')).toBeUndefined();
  });

  it('reads a dictated report whose first heading looks like a speaker label', () => {
    expect(days('SUBJECTIVE: Here for a cough. PLAN: Return in two weeks.', 'dictation')).toBe(14);
  });
});
