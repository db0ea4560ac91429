import { type ASTVisitor, GraphQLError, Kind, type SelectionSetNode, type ValidationContext } from 'graphql';

/** Root fields one operation may hold: enough for any real client, too few to multiply password checks. */
export const MAX_ROOT_FIELDS = 20;

/** A validation rule: an operation with more root fields (aliases included) than MAX_ROOT_FIELDS is refused. */
export function rootFieldLimit(context: ValidationContext): ASTVisitor {
  const count = (set: SelectionSetNode, seen: Set<string>): number => {
    let n = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) n += 1;
      else if (s.kind === Kind.INLINE_FRAGMENT) n += count(s.selectionSet, seen);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value); // a fragment spread counts once, and a cycle (refused by another rule) ends here
        const fragment = context.getFragment(s.name.value);
        if (fragment) n += count(fragment.selectionSet, seen);
      }
    }
    return n;
  };
  return {
    OperationDefinition(node) {
      const n = count(node.selectionSet, new Set());
      if (n > MAX_ROOT_FIELDS)
        context.reportError(
          new GraphQLError(`An operation may hold at most ${MAX_ROOT_FIELDS} root fields; this one holds ${n}.`, { nodes: node }),
        );
    },
  };
}
