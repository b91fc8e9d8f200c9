import { openApiToAvro } from './generator/openapi-to-avro.ts';
import type { OpenApiDocument } from './generator/openapi.ts';
import { watchEventSchema } from './avro/watch-event-schema.ts';
import { WATCHED_KINDS, watchSchemaFile } from './kinds.ts';
import { withheldSchema } from './withheld.ts';
import { metadataOnlySchema } from './metadata-only.ts';

/**
 * watchSchemaFiles generates the value schema of every watch topic from the apiserver's OpenAPI v3
 * documents (by their `/openapi/v3/<path>`), as the text committed in schemas/watch/.
 */
export function watchSchemaFiles(documents: ReadonlyMap<string, OpenApiDocument>): Map<string, string> {
  return new Map(
    WATCHED_KINDS.map((kind) => {
      if (kind.metadataOnly === true)
        return [watchSchemaFile(kind), schemaText(watchEventSchema(metadataOnlySchema(kind), `${kind.kind}Identity`))];
      const doc = documents.get(kind.openApiPath);
      if (!doc) throw new Error(`no OpenAPI document for ${kind.openApiPath}`);
      const object = openApiToAvro(doc, kind.definition);
      const schema = watchEventSchema(kind.withheld === undefined ? object : withheldSchema(object), kind.kind);
      return [watchSchemaFile(kind), schemaText(schema)];
    }),
  );
}

const schemaText = (schema: object): string => `${JSON.stringify(schema, null, 2)}\n`;

/** openApiPaths are the group versions whose documents the watched kinds need (a metadata-only kind's needs none). */
export function openApiPaths(): readonly string[] {
  return [...new Set(WATCHED_KINDS.filter((k) => k.metadataOnly !== true).map((k) => k.openApiPath))];
}
