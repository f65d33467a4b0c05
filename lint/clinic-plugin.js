// The project's own lint rules, loaded by .oxlintrc.json (oxlint's ESLint-compatible JS plugins).

/**
 * Inside `transaction(db, async (tx) => …)` (server/db/tx.ts) every statement must go through `tx`. On SQLite Kysely
 * lends the one connection to one transaction at a time, so a statement sent through the outer executor `db`, or
 * through a store made from it (`const store = xStore(db)`), waits for the transaction to end, which never comes;
 * on PostgreSQL it would run on another connection, outside the transaction. The rule sees what the file shows: a
 * callback passed inline, and stores made from the executor by name in the same file.
 */
const noOuterExecutorInTransaction = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid the outer executor, or a store made from it, inside a transaction(…) callback' },
    messages: {
      executor: '`{{name}}` is the executor this transaction was opened on: inside the callback use its `tx` (on SQLite `{{name}}` waits for this transaction to end, for ever)',
      store: '`{{name}}` was made from `{{executor}}`, the executor this transaction was opened on: make the store from the callback\'s `tx` instead',
    },
    schema: [],
  },
  create(context) {
    /** Variable name → the executor identifier it was made from, for `const n = somethingStore(executor)`. */
    const madeFrom = new Map();
    return {
      VariableDeclarator(node) {
        const init = node.init;
        if (node.id.type !== 'Identifier' || init?.type !== 'CallExpression') return;
        const callee = init.callee.type === 'Identifier' ? init.callee.name : null;
        const arg = init.arguments[0];
        if (callee && /Store$/.test(callee) && arg?.type === 'Identifier') madeFrom.set(node.id.name, arg.name);
      },
      CallExpression(node) {
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'transaction') return;
        const [outer, body] = node.arguments;
        if (outer?.type !== 'Identifier') return;
        if (body?.type !== 'ArrowFunctionExpression' && body?.type !== 'FunctionExpression') return;
        const shadowed = declaredIn(body);
        if (shadowed.has(outer.name)) return;
        walk(body, (id) => {
          if (shadowed.has(id.name)) return;
          if (id.name === outer.name) {
            context.report({ node: id, messageId: 'executor', data: { name: id.name } });
          } else if (madeFrom.get(id.name) === outer.name) {
            context.report({ node: id, messageId: 'store', data: { name: id.name, executor: outer.name } });
          }
        });
      },
    };
  },
};

/**
 * A store (`export function xStore(e: Executor) { … return { … } }`) is made for every transaction, several per
 * request. `npm run serve` runs the TypeScript through tsx, whose esbuild transform keeps function names by wrapping
 * each arrow function given a name, as `insert: async (a) => …` is, in `__name`: a defineProperty on the new function
 * every time the store is made (20 µs of a status change's 170, issue 27). A method (`async insert(a) { … }`) has its
 * name by itself. The rule looks at the object literals a `…Store` function returns or keeps in a constant.
 */
const storeMethods = {
  meta: {
    type: 'suggestion',
    docs: { description: 'declare the statements of a store as methods, not arrow-function properties' },
    messages: {
      arrow: '`{{name}}` in {{store}}: declare it as a method (`{{name}}(…) { … }`): under tsx an arrow-function property is wrapped in __name each time the store is made',
    },
    schema: [],
  },
  create(context) {
    const check = (store, object) => {
      if (object?.type !== 'ObjectExpression') return;
      for (const p of object.properties) {
        if (p.type !== 'Property' || p.method || p.kind !== 'init') continue;
        if (p.value.type !== 'ArrowFunctionExpression' && p.value.type !== 'FunctionExpression') continue;
        const name = p.key.type === 'Identifier' ? p.key.name : context.sourceCode.getText(p.key);
        context.report({ node: p, messageId: 'arrow', data: { name, store } });
      }
    };
    return {
      FunctionDeclaration(node) {
        if (!node.id || !/Store$/.test(node.id.name) || node.body?.type !== 'BlockStatement') return;
        for (const statement of node.body.body) {
          if (statement.type === 'ReturnStatement') check(node.id.name, statement.argument);
          if (statement.type === 'VariableDeclaration') for (const d of statement.declarations) check(node.id.name, d.init);
        }
      },
    };
  },
};

const SKIP = new Set(['parent', 'loc', 'range', 'start', 'end', 'typeAnnotation', 'returnType', 'typeArguments', 'typeParameters']);

/** Calls `visit` for every identifier the subtree reads (not property names, not keys of object literals). */
function walk(node, visit) {
  if (!node || typeof node.type !== 'string') return;
  if (node.type === 'Identifier') return visit(node);
  for (const key of Object.keys(node)) {
    if (SKIP.has(key)) continue;
    if ((node.type === 'MemberExpression' && key === 'property' && !node.computed)
      || (node.type === 'Property' && key === 'key' && !node.computed)) continue;
    const child = node[key];
    if (Array.isArray(child)) for (const c of child) walk(c, visit);
    else if (child && typeof child === 'object') walk(child, visit);
  }
}

/** Names the function binds itself (parameters, and variables declared anywhere in its body): they hide outer ones. */
function declaredIn(fn) {
  const names = new Set();
  const bind = (p) => {
    if (!p) return;
    if (p.type === 'Identifier') names.add(p.name);
    else if (p.type === 'AssignmentPattern') bind(p.left);
    else if (p.type === 'RestElement') bind(p.argument);
    else if (p.type === 'ArrayPattern') p.elements.forEach(bind);
    else if (p.type === 'ObjectPattern') p.properties.forEach((q) => bind(q.type === 'RestElement' ? q : q.value));
  };
  fn.params.forEach(bind);
  const scan = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'VariableDeclarator') bind(node.id);
    if ((node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') && node !== fn) node.params.forEach(bind);
    for (const key of Object.keys(node)) {
      if (SKIP.has(key)) continue;
      const child = node[key];
      if (Array.isArray(child)) child.forEach(scan);
      else if (child && typeof child === 'object') scan(child);
    }
  };
  scan(fn.body);
  return names;
}

export default {
  meta: { name: 'clinic' },
  rules: { 'no-outer-executor-in-transaction': noOuterExecutorInTransaction, 'store-methods': storeMethods },
};
