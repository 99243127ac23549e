import { z } from 'zod';

/** How one app setting is described, defaulted and parsed. */
export interface SettingSpec<T> {
  readonly description: string;
  /** Raw default used when the setting is absent; `undefined` means "no default". */
  readonly default?: string;
  /** A value that would be valid, shown in error messages and the example settings file. */
  readonly example: string;
  /** What a valid value looks like, in words, for error messages. */
  readonly expects: string;
  /** Secret values are never echoed back in error messages. */
  readonly secret?: boolean;
  /** An HMAC key the app signs with: refused in Azure when it is one this repository publishes. */
  readonly signingKey?: boolean;
  readonly schema: z.ZodType<T, string>;
}

type Options = Pick<SettingSpec<unknown>, 'description' | 'default' | 'example' | 'secret'>;

export function text(options: Options & { minLength?: number; pattern?: RegExp; expects?: string }) {
  let schema = z
    .string()
    .trim()
    .min(options.minLength ?? 1);
  if (options.pattern) schema = schema.regex(options.pattern);
  return spec(options, options.expects ?? 'a non-empty text', schema);
}

/** A secret HMAC key of at least 32 characters (the catalogue's signing keys are the ones marked so). */
export function signingKey(options: Omit<Options, 'secret'>) {
  return {
    ...text({ ...options, minLength: 32, expects: 'a secret of at least 32 characters', secret: true }),
    signingKey: true,
  };
}

export function integer(options: Options & { min: number; max: number; expects?: string }) {
  const schema = z
    .string()
    .trim()
    .regex(/^-?\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(options.min).max(options.max));
  return spec(options, options.expects ?? `a whole number from ${options.min} to ${options.max}`, schema);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T, options: Options) {
  const schema = z
    .string()
    .trim()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(values));
  return spec(options, `one of ${values.join(' | ')}`, schema);
}

export function boolean(options: Options) {
  const schema = z
    .string()
    .trim()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(['true', 'false']))
    .transform((v) => v === 'true');
  return spec(options, 'true or false', schema);
}

export function httpUrl(options: Options) {
  const schema = z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/ }))
    .transform((v) => v.replace(/\/+$/, ''));
  return spec(options, 'an http(s) URL', schema);
}

/** An http(s) URL that links are built on by appending a path: a query or fragment would swallow it. */
export function baseUrl(options: Options) {
  const schema = z
    .string()
    .trim()
    .refine((v) => !/[?#]/.test(v))
    .pipe(z.url({ protocol: /^https?$/ }))
    .transform((v) => v.replace(/\/+$/, ''));
  return spec(options, 'an http(s) URL without query or fragment', schema);
}

/**
 * One plain address (no display name, no list, no control characters): it becomes a mail header.
 * Looser than z.email() on the domain, so a local `breakwater@localhost` still passes.
 */
export function emailAddress(options: Options) {
  const schema = z
    .string()
    .trim()
    .regex(/^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/);
  return spec(options, 'one email address, without a display name', schema);
}

export function emailList(options: Options) {
  const schema = z
    .string()
    .transform((v) =>
      v
        .split(/[;,]/)
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    )
    .pipe(z.array(z.email()).min(1));
  return spec(options, 'one or more email addresses separated by , or ;', schema);
}

function spec<T>(options: Options, expects: string, schema: z.ZodType<T, string>): SettingSpec<T> {
  return { ...options, expects, schema };
}
