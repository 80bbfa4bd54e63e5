/**
 * An empty program, compiled with the product's build flags: the start-up floor of any compiled
 * Bun executable (loading the runtime and an embedded bundle), for the start-up notes.
 */
export {};
