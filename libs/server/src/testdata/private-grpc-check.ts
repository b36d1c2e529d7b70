import ts from 'typescript';

/** One place where a lib source reaches past grpc-js's public API. */
export interface PrivateUse { file: string; line: number; what: string }

function declaredInGrpcJs(symbol: ts.Symbol | undefined): boolean {
  return symbol?.declarations?.some((d) => d.getSourceFile().fileName.includes('/@grpc/grpc-js/')) === true;
}

/** Whether a type is an instance of a class grpc-js declares (Server, ServerInterceptingCall, …). */
function grpcJsClass(type: ts.Type): boolean {
  const symbol = type.getSymbol();
  return symbol !== undefined && (symbol.flags & ts.SymbolFlags.Class) !== 0 && declaredInGrpcJs(symbol);
}

function isPrivate(member: ts.Symbol | undefined): boolean {
  const declaration = member?.valueDeclaration ?? member?.declarations?.[0];
  return declaration !== undefined && (ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
}

type Cast = ts.AsExpression | ts.TypeAssertion;

function isCast(node: ts.Node): node is Cast {
  return ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
}

function skipParens(node: ts.Node): ts.Node {
  let n = node;
  while (ts.isParenthesizedExpression(n)) n = n.parent;
  return n;
}

/** The expression a chain of casts starts from. */
function innermost(cast: Cast): ts.Expression {
  let e: ts.Expression = cast.expression;
  while (ts.isParenthesizedExpression(e) || isCast(e)) e = e.expression;
  return e;
}

function opaque(type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.NonPrimitive)) !== 0;
}

/**
 * The ways a source can use a grpc-js class's private members and still compile: a cast of a
 * grpc-js object to a structural type naming one of its private members or to an opaque type
 * (`unknown`, `object`, `any`), a bracket access to a member grpc-js declares private, and a
 * grpc-js object handed on where its type is lost (`object`, `unknown`, `any`). A cast to the
 * shape of a generated client's methods (public, but not in grpc-js's typings) is fine.
 */
export function findPrivateGrpcUses(files: readonly string[], options: ts.CompilerOptions): PrivateUse[] {
  const program = ts.createProgram({ rootNames: files, options: { ...options, noEmit: true } });
  const checker = program.getTypeChecker();
  const found: PrivateUse[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) continue;
    const report = (node: ts.Node, what: string): void => {
      found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, what });
    };
    const visit = (node: ts.Node): void => {
      if (isCast(node) && !isCast(skipParens(node.parent))) {
        // The outermost of a chain of casts (`x as unknown as {…}`): what the grpc-js object became.
        const inner = innermost(node);
        const from = checker.getTypeAtLocation(inner);
        const to = checker.getTypeAtLocation(node.type);
        if (grpcJsClass(from) && !grpcJsClass(to)) {
          const hidden = to.getProperties().map((p) => p.name).filter((name) => isPrivate(from.getProperty(name)));
          if (opaque(to)) report(node, `a grpc-js object cast to ${node.type.getText(source)}`);
          else if (hidden.length > 0) report(node, `a grpc-js object cast to a type naming its private ${hidden.join(', ')}`);
        }
      } else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && grpcJsClass(checker.getTypeAtLocation(node.expression))) {
        const member = checker.getTypeAtLocation(node.expression).getProperty(node.argumentExpression.text);
        if (isPrivate(member)) report(node, `private member ${node.argumentExpression.text}`);
      } else if ((ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) && !ts.isPropertyAccessExpression(node.parent) && !isCast(skipParens(node.parent)) && grpcJsClass(checker.getTypeAtLocation(node))) {
        const contextual = checker.getContextualType(node);
        if (contextual !== undefined && opaque(contextual)) report(node, `a grpc-js object handed on as ${checker.typeToString(contextual)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
