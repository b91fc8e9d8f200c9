import { openApiToAvro } from '@kcm-bus/schemas/generator/openapi-to-avro.ts';
import type { OpenApiDocument, OpenApiSchema } from '@kcm-bus/schemas/generator/openapi.ts';

/** Test fixture: a small OpenAPI document exercising every mapping rule, shared by the value-converter tests. */

const ref = (name: string): OpenApiSchema => ({ allOf: [{ $ref: `#/components/schemas/${name}` }] });

/** widgetDocument is a hand-written OpenAPI v3 fragment in the shape the kube-apiserver serves. */
export const widgetDocument: OpenApiDocument = {
  components: {
    schemas: {
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
        format: 'int-or-string',
        oneOf: [{ type: 'integer' }, { type: 'string' }],
      },
      'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
      'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: 'string', format: 'date-time' },
      'io.kcmbus.test.v1.Widget': {
        type: 'object',
        properties: {
          name: { type: 'string' },
          replicas: { type: 'integer', format: 'int32' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          created: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time'),
          port: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'),
          raw: ref('io.k8s.apimachinery.pkg.runtime.RawExtension'),
          $ref: { type: 'string' },
          parts: { type: 'array', items: ref('io.kcmbus.test.v1.Widget') },
          byZone: { type: 'object', additionalProperties: ref('io.kcmbus.test.v1.Widget') },
          constructor: { type: 'boolean' },
        },
      },
    },
  },
};

/** widgetSchema is the Avro schema generated for the fixture's recursive Widget. */
export const widgetSchema = openApiToAvro(widgetDocument, 'io.kcmbus.test.v1.Widget');

/** widgetNulls is the Avro value of a widget with every field null: what an empty widget encodes to. */
export const widgetNulls = {
  name: null,
  replicas: null,
  labels: null,
  created: null,
  port: null,
  raw: null,
  _ref: null,
  parts: null,
  byZone: null,
  constructor: null,
};
