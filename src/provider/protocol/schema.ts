/**
 * The schema builder: a `Schema` of this room → the protocol's `tfplugin6.Schema` message
 * (a block of attributes and nested blocks; an attribute's type is its cty type as JSON bytes, a
 * nested attribute carries `nested_type` with its nesting mode; descriptions are plain text), and
 * the value shape of a schema, its nested blocks included.
 */
import type { Shape } from "./codec";
import { schemaShape } from "./codec";
import type { Attribute, Block, Schema } from "./types";

/** tfplugin6.Schema, as @grpc/proto-loader writes it (field names as in the .proto). */
export interface ProtoSchema {
  version: number;
  block: {
    version: number;
    attributes: ProtoAttribute[];
    block_types: ProtoNestedBlock[];
    description: string;
    description_kind: "PLAIN";
    deprecated: boolean;
  };
}

export interface ProtoNestedBlock {
  type_name: string;
  block: ProtoSchema["block"];
  nesting: "SINGLE" | "LIST" | "SET";
  min_items: number;
  max_items: number;
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
    block: protoBlock(schema.version, schema.description, schema.attributes, schema.blocks ?? [], ""),
  };
}

function protoBlock(version: number, description: string, attributes: readonly Attribute[], blocks: readonly Block[], prefix: string): ProtoSchema["block"] {
  const names = new Set<string>();
  for (const name of [...attributes.map((a) => a.name), ...blocks.map((b) => b.name)]) {
    if (names.has(name)) throw new Error(`Schema ${prefix === "" ? "" : `block ${prefix.slice(0, -1)} `}names "${name}" twice (attributes and blocks share one namespace).`);
    names.add(name);
  }
  return {
    version,
    attributes: attributes.map((attribute) => toProtoAttribute(attribute, `${prefix}${attribute.name}`)),
    block_types: blocks.map((block) => toProtoBlock(block, `${prefix}${block.name}`)),
    description,
    description_kind: "PLAIN",
    deprecated: false,
  };
}

function toProtoBlock(block: Block, path: string): ProtoNestedBlock {
  return {
    type_name: block.name,
    block: protoBlock(0, block.description, block.attributes, block.blocks ?? [], `${path}.`),
    nesting: block.nesting.toUpperCase() as "SINGLE" | "LIST" | "SET",
    min_items: 0,
    max_items: block.nesting === "single" ? 0 : (block.maxItems ?? 0),
  };
}

/**
 * The value shape of a schema: its attributes and its nested blocks (a block's value has the type
 * of a nested attribute of the same nesting: an object, or a list or set of objects).
 */
export function shapeOfSchema(schema: Pick<Schema, "attributes" | "blocks">): Shape {
  return schemaShape({ attributes: [...schema.attributes, ...(schema.blocks ?? []).map(blockAsAttribute)] });
}

function blockAsAttribute(block: Block): Attribute {
  return {
    name: block.name,
    description: block.description,
    optional: true,
    nested: { nesting: block.nesting, attributes: [...block.attributes, ...(block.blocks ?? []).map(blockAsAttribute)] },
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
