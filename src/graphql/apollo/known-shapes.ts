/**
 * New documents of a shape already validated are validated by the rules that read values alone.
 *
 * Validating a new document runs every rule (graphql-js's and graphql-armor's), and most of that
 * time is graphql-js setting up one visitor of them all, the same for every document. Yet a
 * question asked with literals differs from the last one only in its values: the piece, the
 * squares, the mask. A document's shape is its text with every string, number and enum value
 * replaced by its kind (`shapeOf`; booleans and nulls stay, as directives read them). Of the
 * rules, only two read the values themselves: `ValuesOfCorrectTypeRule` (is this literal valid
 * for its type) and `OverlappingFieldsCanBeMergedRule` (do two fields of one response name have
 * the same arguments). Every other rule sees the same thing in two documents of one shape and so
 * gives the same verdict. So when a new document has the shape of one Apollo validated before,
 * those two rules alone decide; if they find nothing, the document goes to Apollo's document
 * store as validated (`ValidatedDocuments.offer`), and Apollo takes it from there as it takes any
 * document seen before. If they find anything, or the shape is new, or the text does not parse,
 * nothing is done: Apollo parses and validates it as always, with its errors as always.
 *
 * Even those two rules run in graphql-js's visitor with its type information, most of their cost
 * for a small document. Most documents need neither: `plainValuesValid` walks a single operation
 * without fragments, directives or variables' defaults, and when no selection set holds two fields
 * of one response name (the only place the overlap rule looks) and every argument's literal is a
 * value of its type (`valueFromAST`, the coercion execution will use), the rules could find
 * nothing. Anything else it does not judge, and the two rules decide as before.
 */
import { createRequire } from 'node:module';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import {
  type ASTNode,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  Kind,
  type ParseOptions,
  parse,
  type SelectionSetNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { byteBound, type CacheSize, lruSize, textBytes } from '../caching/sizes.js';
import type { ValidatedDocuments } from './document-store.js';

/**
 * graphql-js as Node resolves it for Apollo (`require`): its rules must be of the same copy as
 * the schema they check (a bundler or test runner may load a second copy for this module's own
 * `import`, whose type checks would not recognise the schema's types). Used only when the schema
 * is of this copy (checked on each request); otherwise the shortcut stays off.
 */
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/** Shapes remembered, at most. */
const MAX_SHAPES = 1000;
/**
 * Default bound of the shapes remembered, bytes. A shape may be several times its text (a
 * literal `1` becomes `#IntValue`): 1,000 shapes of 16 KiB texts would hold some 150 MB.
 */
export const SHAPE_CACHE_BYTES = 4 * 1024 * 1024;
/** Longest document text looked at (longer ones are validated by Apollo). */
const MAX_TEXT = 16 * 1024;
/** The rules that read literal values. */
const VALUE_RULES = [graphql.ValuesOfCorrectTypeRule, graphql.OverlappingFieldsCanBeMergedRule];

/**
 * True when `selectionSet`, on `parent`, holds no two fields of one response name, only fields
 * of its type with literal arguments valid for theirs (recursively), and nothing else.
 */
function plainSelectionsValid(parent: GraphQLNamedType, selectionSet: SelectionSetNode): boolean {
  if (!graphql.isObjectType(parent) && !graphql.isInterfaceType(parent)) return false;
  const fields = parent.getFields();
  const names = new Set<string>();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || (selection.directives && selection.directives.length > 0)) return false;
    const name = selection.alias?.value ?? selection.name.value;
    if (names.has(name)) return false;
    names.add(name);
    const field = fields[selection.name.value];
    if (field === undefined) return selection.name.value === '__typename' && !selection.arguments?.length;
    for (const argument of selection.arguments ?? []) {
      const definition = field.args.find((a) => a.name === argument.name.value);
      // The shape was validated, so its arguments and input fields are known: the values remain.
      if (definition === undefined || graphql.valueFromAST(argument.value, definition.type) === undefined) return false;
    }
    if (selection.selectionSet && !plainSelectionsValid(graphql.getNamedType(field.type), selection.selectionSet))
      return false;
  }
  return true;
}

/**
 * True when the value rules could find nothing in `document`, a document of a known shape (see
 * the file comment); false when it cannot tell, and the rules decide.
 */
export function plainValuesValid(schema: GraphQLSchema, document: DocumentNode): boolean {
  if (document.definitions.length !== 1) return false;
  const [operation] = document.definitions;
  if (operation.kind !== Kind.OPERATION_DEFINITION || (operation.directives && operation.directives.length > 0))
    return false;
  if (operation.variableDefinitions?.some((v) => v.defaultValue !== undefined)) return false;
  const root = schema.getRootType(operation.operation);
  return root !== undefined && root !== null && plainSelectionsValid(root, operation.selectionSet);
}

/** `ok`, with `text` written to `out` after what made it when it is true. */
function then(ok: boolean, text: string, out: string[]): boolean {
  if (ok) out.push(text);
  return ok;
}

/** The shapes of `nodes` between `open` and `close`; false when one has none. */
function all(nodes: readonly ASTNode[] | undefined, open: string, close: string, out: string[]): boolean {
  if (!nodes) return true;
  out.push(open);
  for (const n of nodes) if (!shape(n, out)) return false;
  out.push(close);
  return true;
}

/** Appends the shape of `node` to `out`; false for a node of no executable document. */
function shape(node: ASTNode | undefined, out: string[]): boolean {
  if (node === undefined) return true;
  switch (node.kind) {
    case Kind.DOCUMENT:
      return all(node.definitions, '', '', out);
    case Kind.OPERATION_DEFINITION:
      out.push(node.operation, ' ', node.name?.value ?? '');
      return (
        all(node.variableDefinitions, '(', ')', out) &&
        all(node.directives, '', '', out) &&
        shape(node.selectionSet, out)
      );
    case Kind.VARIABLE_DEFINITION:
      out.push('$', node.variable.name.value, ':');
      if (!shape(node.type, out)) return false;
      out.push('=');
      return then(shape(node.defaultValue, out) && all(node.directives, '', '', out), ',', out);
    case Kind.SELECTION_SET:
      return all(node.selections, '{', '}', out);
    case Kind.FIELD:
      out.push(' ', node.alias ? `${node.alias.value}:` : '', node.name.value);
      return all(node.arguments, '(', ')', out) && all(node.directives, '', '', out) && shape(node.selectionSet, out);
    case Kind.ARGUMENT:
    case Kind.OBJECT_FIELD:
      out.push(node.name.value, ':');
      return then(shape(node.value, out), ',', out);
    case Kind.FRAGMENT_SPREAD:
      out.push(' ...', node.name.value);
      return all(node.directives, '', '', out);
    case Kind.INLINE_FRAGMENT:
      out.push(' ...on ', node.typeCondition?.name.value ?? '');
      return all(node.directives, '', '', out) && shape(node.selectionSet, out);
    case Kind.FRAGMENT_DEFINITION:
      if (node.variableDefinitions) return false;
      out.push(' fragment ', node.name.value, ' on ', node.typeCondition.name.value);
      return all(node.directives, '', '', out) && shape(node.selectionSet, out);
    case Kind.DIRECTIVE:
      out.push('@', node.name.value);
      return all(node.arguments, '(', ')', out);
    case Kind.VARIABLE:
      out.push('$', node.name.value);
      return true;
    case Kind.INT:
    case Kind.FLOAT:
    case Kind.STRING:
    case Kind.ENUM:
      out.push('#', node.kind);
      return true;
    case Kind.BOOLEAN:
      out.push(node.value ? 'true' : 'false');
      return true;
    case Kind.NULL:
      out.push('null');
      return true;
    case Kind.LIST:
      return all(node.values, '[', ']', out);
    case Kind.OBJECT:
      return all(node.fields, '{', '}', out);
    case Kind.NAMED_TYPE:
      out.push(node.name.value);
      return true;
    case Kind.LIST_TYPE:
      out.push('[');
      return then(shape(node.type, out), ']', out);
    case Kind.NON_NULL_TYPE:
      return then(shape(node.type, out), '!', out);
    default:
      return false;
  }
}

/** The document's shape (see the file comment), or undefined when it holds anything but executable definitions. */
export function shapeOf(document: DocumentNode): string | undefined {
  const out: string[] = [];
  return shape(document, out) ? out.join('') : undefined;
}

/** Shapes of documents Apollo validated, least recently used dropped first. */
export class KnownShapes {
  readonly #shapes: LRUCache<string, true> | undefined;
  readonly #maxBytes: number;

  /** Remembers at most MAX_SHAPES shapes and `maxBytes` of them (0: none). */
  constructor(maxBytes = SHAPE_CACHE_BYTES) {
    this.#maxBytes = maxBytes;
    this.#shapes =
      maxBytes > 0
        ? new LRUCache({ max: MAX_SHAPES, ...byteBound<true>(maxBytes, (_, shape) => 64 + textBytes(shape)) })
        : undefined;
  }

  /** Records the shape of a document Apollo validated. */
  validated(document: DocumentNode): void {
    if (!this.#shapes) return;
    const s = shapeOf(document);
    if (s !== undefined) this.#shapes.set(s, true);
  }

  /** Whether a document of this shape was validated. */
  known(document: DocumentNode): boolean {
    if (!this.#shapes) return false;
    const s = shapeOf(document);
    return s !== undefined && this.#shapes.get(s) === true;
  }

  /** Shapes remembered and their estimated bytes. */
  size(): CacheSize {
    return lruSize(this.#shapes, this.#maxBytes);
  }
}

/**
 * The plugin: when a text is new to Apollo's store and its document has a known shape, the
 * value rules alone validate it (see the file comment). `parseOptions` must be Apollo's.
 */
export function knownShapesPlugin<TContext extends BaseContext>(
  documents: ValidatedDocuments,
  shapes: KnownShapes,
  parseOptions: ParseOptions,
): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveSource({ source, queryHash, schema }) {
          if (!documents.ready || source.length > MAX_TEXT || documents.has(queryHash)) return;
          if (!(schema instanceof graphql.GraphQLSchema)) return;
          try {
            const document = parse(source, parseOptions);
            if (!shapes.known(document)) return;
            if (!plainValuesValid(schema, document) && graphql.validate(schema, document, VALUE_RULES).length > 0)
              return;
            documents.offer(queryHash, document);
          } catch {
            // Whatever went wrong (the text does not parse), Apollo parses and validates it as always.
          }
        },
      };
    },
  };
}
