/**
 * The schema builder: a `Schema` of this room → the protocol's `tfplugin6.Schema` message
 * (a block of attributes; an attribute's type is its cty type as JSON bytes, a nested attribute
 * carries `nested_type` with its nesting mode; descriptions are plain text).
 */
import type { Attribute, Schema } from "./types";

/** tfplugin6.Schema, as @grpc/proto-loader writes it (field names as in the .proto). */
export interface ProtoSchema {
  version: number;
  block: {
    version: number;
    attributes: ProtoAttribute[];
    block_types: never[];
    description: string;
    description_kind: "PLAIN";
    deprecated: boolean;
  };
}

export interface ProtoAttribute {
  name: string;
  type: Buffer;
  nested_type: { attributes: ProtoAttribute[]; nesting: "SINGLE" | "LIST" | "SET" | "MAP" } | null;
  description: string;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  description_kind: "PLAIN";
  deprecated: boolean;
}

/** Builds the protocol's schema; throws an Error naming the attribute where the schema is not one Terraform accepts. */
export function toProtoSchema(schema: Schema): ProtoSchema {
  return {
    version: schema.version,
    block: {
      version: schema.version,
      attributes: schema.attributes.map((attribute) => toProtoAttribute(attribute, attribute.name)),
      block_types: [],
      description: schema.description,
      description_kind: "PLAIN",
      deprecated: false,
    },
  };
}

function toProtoAttribute(attribute: Attribute, path: string): ProtoAttribute {
  checkAttribute(attribute, path);
  return {
    name: attribute.name,
    type: attribute.type === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(attribute.type), "utf8"),
    nested_type:
      attribute.nested === undefined
        ? null
        : {
            attributes: attribute.nested.attributes.map((inner) => toProtoAttribute(inner, `${path}.${inner.name}`)),
            nesting: nestingMode(attribute.nested.nesting),
          },
    description: attribute.description,
    required: attribute.required ?? false,
    optional: attribute.optional ?? false,
    computed: attribute.computed ?? false,
    sensitive: attribute.sensitive ?? false,
    description_kind: "PLAIN",
    deprecated: false,
  };
}

function nestingMode(nesting: "single" | "list" | "set" | "map"): "SINGLE" | "LIST" | "SET" | "MAP" {
  return nesting.toUpperCase() as "SINGLE" | "LIST" | "SET" | "MAP";
}

function checkAttribute(attribute: Attribute, path: string): void {
  if ((attribute.type === undefined) === (attribute.nested === undefined)) {
    throw new Error(`Schema attribute ${path} must have exactly one of "type" and "nested".`);
  }
  if (attribute.required === true && (attribute.optional === true || attribute.computed === true)) {
    throw new Error(`Schema attribute ${path} is required, so it cannot also be optional or computed.`);
  }
  if (attribute.required !== true && attribute.optional !== true && attribute.computed !== true) {
    throw new Error(`Schema attribute ${path} must be required, optional or computed (or optional and computed).`);
  }
}
