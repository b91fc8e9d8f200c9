import type { SchemaRegistry } from './registry.ts';

/** memoryRegistry is a registry double for unit tests: each distinct schema text gets its own id, as in a registry. */
export function memoryRegistry(): SchemaRegistry {
  const ids = new Map<string, number>();
  const schemas: object[] = [];
  return {
    register: async (_subject, schema) => {
      const text = JSON.stringify(schema);
      if (!ids.has(text)) ids.set(text, schemas.push(schema));
      return ids.get(text) as number;
    },
    schemaById: async (id) => schemas[id - 1] ?? Promise.reject(new Error(`no schema ${id}`)),
    setCompatibility: async () => undefined,
  };
}
