package io.statecast.messagestore.event;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import net.sf.saxon.Configuration;
import net.sf.saxon.expr.Expression;
import net.sf.saxon.expr.Operand;
import net.sf.saxon.expr.VariableReference;
import net.sf.saxon.expr.instruct.GlobalParam;
import net.sf.saxon.expr.instruct.GlobalVariable;
import net.sf.saxon.lib.EnvironmentVariableResolver;
import net.sf.saxon.lib.Feature;
import net.sf.saxon.om.StructuredQName;
import net.sf.saxon.query.QueryModule;
import net.sf.saxon.query.XQueryExpression;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SaxonApiException;
import net.sf.saxon.s9api.XPathCompiler;
import net.sf.saxon.s9api.XPathExecutable;
import net.sf.saxon.s9api.XQueryCompiler;
import net.sf.saxon.s9api.XQueryExecutable;
import net.sf.saxon.s9api.XmlProcessingError;
import net.sf.saxon.sxpath.XPathVariable;
import net.sf.saxon.trans.XPathException;

/**
 * The one place specs' XQuery and XPath are compiled: a Saxon {@link Processor} sandboxed for
 * untrusted text, plus the checks Saxon's configuration cannot express.
 *
 * <p>Sandbox: {@link Feature#ALLOWED_PROTOCOLS} is empty (no {@code doc}, {@code collection},
 * {@code unparsed-text}, module import may open any URI); the resource, collection,
 * unparsed-text and module resolvers refuse everything; the environment-variable resolver
 * exposes nothing; regex backtracking is capped. At compile time the expression tree is
 * inspected: calls that reach outside the history, function items and dynamic calls, recursive
 * functions and non-literal or oversized ranges are refused with a message naming them.
 *
 * <p>Time: the text is bounded in length and bracket nesting before Saxon parses it, and the
 * compilation runs on a {@link BoundedWorker} (large fixed stack, deadline). Run-time evaluation
 * is inline on the MessageStore's shard threads ({@link QueryEvaluator}), bounded by
 * {@link QueryLimits#evaluationTimeout()} through an {@link EvaluationGuard}.
 *
 * <p>One engine may serve many specs; it is thread-safe. Close it to stop its compile thread.
 */
public final class XQueryEngine implements AutoCloseable {

    /** Language version of both XQuery and XPath: 3.1, so no 4.0 focus functions or loops. */
    private static final String LANGUAGE_VERSION = "3.1";
    private static final int REGEX_BACKTRACKING_LIMIT = 1_000_000;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(XQueryEngine.class);

    /** Reports run-time warnings and errors of specs' expressions to the log; stateless, so shared. */
    private static final net.sf.saxon.lib.ErrorReporter RUNTIME_REPORTER = error -> {
        if (LOG.isDebugEnabled()) {
            LOG.debug("query {}: {}", error.isWarning() ? "warning" : "error", error.getMessage());
        }
    };

    private final QueryLimits limits;
    private final Processor processor;
    private final QueryInspector inspector;
    private final BoundedWorker compileWorker;

    /** An engine with {@link QueryLimits#DEFAULTS}. */
    public XQueryEngine() {
        this(QueryLimits.DEFAULTS);
    }

    /** @param limits the bounds on expressions and their compilation and evaluation */
    public XQueryEngine(QueryLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.processor = sandboxedProcessor();
        this.inspector = new QueryInspector(limits.maxRangeSize());
        this.compileWorker = new BoundedWorker("statecast-query-compile", limits.workerStackBytes());
    }

    /**
     * A new processor with this engine's sandbox (no external resources, collections, modules,
     * environment or reflexive calls; capped regex backtracking), for a component that registers
     * functions of its own, such as the statechart engine's {@code In()}.
     */
    public static Processor sandboxedProcessor() {
        Processor p = new Processor(false);
        p.setConfigurationProperty(Feature.ALLOWED_PROTOCOLS, "");
        p.setConfigurationProperty(Feature.ALLOW_EXTERNAL_FUNCTIONS, false);
        p.setConfigurationProperty(Feature.XINCLUDE, false);
        p.setConfigurationProperty(Feature.DTD_VALIDATION, false);
        p.setConfigurationProperty(Feature.REGEX_BACKTRACKING_LIMIT, REGEX_BACKTRACKING_LIMIT);
        p.setConfigurationProperty(Feature.ENVIRONMENT_VARIABLE_RESOLVER, new EnvironmentVariableResolver() {
            @Override
            public Set<String> getAvailableEnvironmentVariables() {
                return Set.of();
            }

            @Override
            public String getEnvironmentVariable(String name) {
                return null;
            }
        });
        Configuration c = p.getUnderlyingConfiguration();
        c.setResourceResolver(request -> {
            throw new XPathException("specs may not read external resources (" + request.uri + ")");
        });
        c.setCollectionFinder((context, uri) -> {
            throw new XPathException("specs may not read collections (" + uri + ")");
        });
        c.setUnparsedTextURIResolver((uri, encoding, config, binary) -> {
            throw new XPathException("specs may not read external text (" + uri + ")");
        });
        c.setModuleURIResolver((moduleUri, baseUri, locations) -> {
            throw new XPathException("specs may not import modules (" + moduleUri + ")");
        });
        // Every run-time evaluation makes a Controller, and by default a Controller makes a
        // StandardErrorReporter writing to System.err through a new PrintWriter: about 25 KB of
        // buffers per evaluation. Run-time warnings go to the log instead, through one shared reporter.
        c.setErrorReporterFactory(config -> RUNTIME_REPORTER);
        PayloadFunctions.register(p);
        return p;
    }

    /** The limits this engine applies. */
    public QueryLimits limits() {
        return limits;
    }

    /**
     * The sandboxed processor, for building history documents with the same configuration
     * (a query may only run against trees built by the processor that compiled it).
     */
    public Processor processor() {
        return processor;
    }

    /**
     * CPU time spent compiling on this engine's compile worker so far, in nanoseconds. The spec
     * loader charges the difference over a load to that load's CPU budget (compilations of
     * concurrent loads on the same engine are charged to each: conservative, never lenient).
     */
    public long compileCpuNanos() {
        return compileWorker.cpuNanosUsed();
    }

    /** A worker for run-time evaluation, with this engine's stack size. The caller closes it. */
    public BoundedWorker newEvaluationWorker(String name) {
        return new BoundedWorker(name, limits.workerStackBytes());
    }

    /**
     * Compiles a composite event's XQuery.
     *
     * @param text           the query
     * @param parameterNames the spec's parameters; the query may declare any of them
     *                       {@code external} and nothing else
     * @throws QueryException when the query does not compile or is refused; position inside the text
     */
    public CompiledQuery compileQuery(String text, Set<String> parameterNames) throws QueryException {
        return compileQuery(text, parameterNames, List.of());
    }

    /**
     * Compiles a composite event's XQuery for a spec with a datamodel.
     *
     * @param parameterNames the spec's parameters
     * @param dataIds        the spec's datamodel variables ({@code <data id>}) in index order; the
     *                       query may declare any parameter or datamodel variable
     *                       {@code external} and nothing else (no id may also be a parameter's
     *                       name: the spec loader refuses that)
     * @throws QueryException when the query does not compile or is refused; position inside the text
     */
    public CompiledQuery compileQuery(String text, Set<String> parameterNames, List<String> dataIds)
            throws QueryException {
        precheck(text);
        return onCompileWorker(() -> compileQueryNow(text, parameterNames, dataIds), "compiling the XQuery");
    }

    /**
     * Compiles an action's XPath. Every spec parameter is declared as a variable.
     *
     * @throws QueryException when the expression does not compile or is refused
     */
    public CompiledPath compilePath(String text, Set<String> parameterNames) throws QueryException {
        return compilePath(text, parameterNames, List.of());
    }

    /**
     * Compiles an action's XPath for a spec with a datamodel: every spec parameter and every
     * datamodel variable ({@code dataIds}, in index order) is declared as a variable.
     *
     * @throws QueryException when the expression does not compile or is refused
     */
    public CompiledPath compilePath(String text, Set<String> parameterNames, List<String> dataIds)
            throws QueryException {
        precheck(text);
        return onCompileWorker(() -> compilePathNow(text, parameterNames, dataIds), "compiling the XPath");
    }

    private CompiledQuery compileQueryNow(String text, Set<String> parameterNames, List<String> dataIds)
            throws QueryException {
        XQueryCompiler compiler = processor.newXQueryCompiler();
        compiler.setLanguageVersion(LANGUAGE_VERSION);
        compiler.declareNamespace(PayloadFunctions.PREFIX, PayloadFunctions.NAMESPACE);
        List<XmlProcessingError> errors = new ArrayList<>();
        compiler.setErrorList(errors);
        XQueryExecutable executable;
        try {
            executable = compiler.compile(text);
        } catch (SaxonApiException e) {
            for (XmlProcessingError err : errors) {
                if (!err.isWarning()) {
                    int line = err.getLocation() == null ? 0 : err.getLocation().getLineNumber();
                    int col = err.getLocation() == null ? 0 : err.getLocation().getColumnNumber();
                    throw new QueryException("XQuery does not compile: " + err.getMessage(),
                            Math.max(0, line), Math.max(0, col));
                }
            }
            throw new QueryException("XQuery does not compile: " + e.getMessage(), Math.max(0, e.getLineNumber()), 0);
        }
        XQueryExpression query = executable.getUnderlyingCompiledQuery();
        QueryModule module = query.getMainModule();
        Map<StructuredQName, Expression> functions = new LinkedHashMap<>();
        try {
            module.getGlobalFunctionLibrary().processAllFunctions(f -> {
                Expression body = f.getUserFunction() != null && f.getUserFunction().getBody() != null
                        ? f.getUserFunction().getBody() : f.getBody();
                if (body != null) {
                    functions.put(f.getFunctionName(), body);
                }
            });
        } catch (XPathException e) {
            throw new QueryException("XQuery functions cannot be inspected: " + e.getMessage(), 0, 0);
        }
        List<Expression> globals = new ArrayList<>();
        Set<String> externals = new TreeSet<>();
        List<DatamodelRef> data = new ArrayList<>();
        for (GlobalVariable v : module.getAllGlobalVariables()) {
            if (v instanceof GlobalParam) {
                String name = v.getVariableQName().getLocalPart();
                boolean plain = v.getVariableQName().getURI().isEmpty();
                if (plain && parameterNames.contains(name)) {
                    externals.add(name);
                } else if (plain && dataIds.contains(name)) {
                    data.add(new DatamodelRef(new QName(name), dataIds.indexOf(name)));
                } else {
                    throw new QueryException("external variable $" + v.getVariableQName().getDisplayName()
                            + " is not a declared parameter or datamodel variable (parameters: "
                            + new TreeSet<>(parameterNames) + ", datamodel: " + new TreeSet<>(dataIds) + ")",
                            Math.max(0, v.getLineNumber()), Math.max(0, v.getColumnNumber()));
                }
            }
            if (v.getBody() != null) {
                globals.add(v.getBody());
            }
        }
        inspector.checkSandbox(query.getExpression(), functions, globals);
        HistoryReads reads = QueryInspector.reads(query.getExpression(), functions.values(), globals);
        data.sort(java.util.Comparator.comparingInt(DatamodelRef::index));
        return new CompiledQuery(text, executable, reads, externals, data,
                CompiledExpression.compile(text, true, externals, dataIds));
    }

    private CompiledPath compilePathNow(String text, Set<String> parameterNames, List<String> dataIds)
            throws QueryException {
        XPathCompiler compiler = processor.newXPathCompiler();
        compiler.setLanguageVersion(LANGUAGE_VERSION);
        compiler.declareNamespace(PayloadFunctions.PREFIX, PayloadFunctions.NAMESPACE);
        compiler.setWarningHandler(warning -> { });
        for (String p : parameterNames) {
            compiler.declareVariable(new QName(p));
        }
        for (String d : dataIds) {
            compiler.declareVariable(new QName(d));
        }
        XPathExecutable executable;
        try {
            executable = compiler.compile(text);
        } catch (SaxonApiException e) {
            throw new QueryException("XPath does not compile: " + e.getMessage(), Math.max(0, e.getLineNumber()), 0);
        }
        Expression tree = executable.getUnderlyingExpression().getInternalExpression();
        inspector.checkSandbox(tree, Map.of(), List.of());
        return new CompiledPath(text, executable, QueryInspector.reads(tree, List.of(), List.of()),
                dataReferences(tree, dataIds), CompiledExpression.compile(text, false, parameterNames, dataIds));
    }

    /**
     * The datamodel variables an XPath's compiled tree reads: references to the declared
     * variables named {@code dataIds} (a {@code let} of the same name is a binding of its own).
     * Only these are bound before each evaluation.
     */
    private static List<DatamodelRef> dataReferences(Expression tree, List<String> dataIds) {
        if (dataIds.isEmpty()) {
            return List.of();
        }
        Set<String> found = new TreeSet<>();
        java.util.Deque<Expression> todo = new java.util.ArrayDeque<>();
        todo.push(tree);
        while (!todo.isEmpty()) {
            Expression e = todo.pop();
            if (e instanceof VariableReference r && r.getBinding() instanceof XPathVariable v
                    && v.getVariableQName().getURI().isEmpty()) {
                String name = v.getVariableQName().getLocalPart();
                if (dataIds.contains(name)) {
                    found.add(name);
                }
            }
            for (Operand o : e.operands()) {
                todo.push(o.getChildExpression());
            }
        }
        List<DatamodelRef> out = new ArrayList<>();
        for (String name : found) {
            out.add(new DatamodelRef(new QName(name), dataIds.indexOf(name)));
        }
        return out;
    }

    /**
     * Bounds an expression's text before another component's processor parses it (the statechart
     * engine compiles its XPath with a processor of its own): its length and bracket nesting.
     *
     * @throws QueryException naming the bound exceeded
     */
    public void checkText(String text) throws QueryException {
        precheck(text);
    }

    /**
     * Applies this engine's sandbox to an XPath another component compiled: the functions it may
     * call (no {@code doc}, {@code unparsed-text}, environment…), no function items or dynamic
     * calls, and ranges only with literal, bounded ends (so a {@code <foreach>} cannot be made to
     * iterate without bound by what a message carries).
     *
     * @throws QueryException naming the construct refused
     */
    public void checkCompiled(XPathExecutable executable) throws QueryException {
        inspector.checkSandbox(executable.getUnderlyingExpression().getInternalExpression(), Map.of(), List.of());
    }

    private interface CompileTask<T> {
        T run() throws QueryException;
    }

    private <T> T onCompileWorker(CompileTask<T> task, String what) throws QueryException {
        try {
            return compileWorker.callCpuBounded(task::run, limits.compileTimeout(), limits.compileWallBackstop(), what);
        } catch (QueryTimeoutException e) {
            throw new QueryException(e.getMessage(), 0, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryException(what + " was interrupted", 0, 0);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof QueryException q) {
                throw q;
            }
            if (cause instanceof StackOverflowError) {
                throw new QueryException("expression is too deeply nested to compile", 0, 0);
            }
            throw new QueryException(what + " failed: " + cause, 0, 0);
        }
    }

    /**
     * Bounds length and nesting before Saxon's recursive-descent parser sees the text. Nesting
     * counts brackets and element constructors outside string literals and comments.
     */
    private void precheck(String text) throws QueryException {
        if (text.length() > limits.maxQueryChars()) {
            throw new QueryException("expression is " + text.length() + " characters, longer than the limit of "
                    + limits.maxQueryChars(), 0, 0);
        }
        QueryInspector.checkCallsInText(text);
        int depth = 0;
        int line = 1;
        int col = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char ch = text.charAt(i);
            col++;
            if (ch == '\n') {
                line++;
                col = 0;
                continue;
            }
            if (ch == '"' || ch == '\'') {
                int end = text.indexOf(ch, i + 1);
                if (end < 0) {
                    return; // unterminated literal: Saxon reports it
                }
                for (int k = i + 1; k < end; k++) {
                    if (text.charAt(k) == '\n') {
                        line++;
                        col = 0;
                    } else {
                        col++;
                    }
                }
                col++;
                i = end;
                continue;
            }
            if (ch == '(' && i + 1 < n && text.charAt(i + 1) == ':') {
                depth++; // comments nest; count them like brackets
            } else if (ch == ':' && i + 1 < n && text.charAt(i + 1) == ')') {
                depth--;
            } else if (ch == '(' || ch == '[' || ch == '{') {
                depth++;
            } else if (ch == ')' || ch == ']' || ch == '}') {
                depth--;
            } else if (ch == '<' && i + 1 < n && Character.isLetter(text.charAt(i + 1))) {
                depth++;
            } else if (ch == '<' && i + 1 < n && text.charAt(i + 1) == '/') {
                depth--;
            }
            if (depth > limits.maxNestingDepth()) {
                throw new QueryException("expression is nested more than " + limits.maxNestingDepth()
                        + " levels deep", line, col);
            }
        }
    }

    /** Stops the compile worker. Compiled queries stay usable. */
    @Override
    public void close() {
        compileWorker.close();
    }
}
