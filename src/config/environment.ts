/** The process environment as the app reads it (app settings arrive as environment variables). */
export type Environment = Readonly<Record<string, string | undefined>>;
