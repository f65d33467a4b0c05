import { type TLiteral, type TSchemaOptions, type TUnion, Type } from 'typebox';

type LiteralsOf<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/**
 * One of the given strings, as a union of literals (the JSON Schema `anyOf` of `const`s the OpenAPI document
 * shows). `Type.Union(values.map(Type.Literal))` hands TypeBox an array rather than a tuple, and its Static<> is
 * then never; here the list's own tuple type is kept, so Static<> is the union of the strings.
 */
export const Literals = <const T extends readonly string[]>(values: T, options?: TSchemaOptions): TUnion<LiteralsOf<T>> =>
  Type.Union(values.map((v) => Type.Literal(v)), options) as TUnion<LiteralsOf<T>>;
