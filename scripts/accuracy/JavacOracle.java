// The Java call-graph oracle of the accuracy benchmark: javac's own attribution.
//
// Usage: java JavacOracle.java OUT.tsv ROOT [javac options ...] -- FILE.java ...
//
// Compiles the given files with the system javac (the compiler Tree API: a JavacTask, a
// TaskListener after ANALYZE, a TreePathScanner over the attributed trees) and writes one
// row per call site, tab-separated:
//   file  line  column  name  kind  callee-file  callee-class  callee-name  descriptor  decl-line
// file: relative to ROOT; line/column 1-based, of the name as written (`foo` in `a.foo(x)`,
// `Foo` in `new Foo<>()`); kind: call | new | ref (a method reference `Foo::bar`, a site but
// not a call); callee-file: relative to ROOT when the callee is declared in a compiled
// file, `-` when it is outside (the platform classes); callee-class: the simple name of the
// callee's innermost named class (`-` for none); callee-name: the method's name, the class's
// name for a constructor; descriptor: the erased signature; decl-line: the line of the
// callee's name in its file (0 when outside). Nothing is generated (-proc:none, no class
// files are written).
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.*;
import javax.lang.model.util.Types;
import javax.tools.*;

public class JavacOracle {
    public static void main(String[] args) throws Exception {
        String out = args[0];
        Path root = Paths.get(args[1]).toAbsolutePath().normalize();
        List<String> options = new ArrayList<>();
        List<File> files = new ArrayList<>();
        boolean inFiles = false;
        for (int i = 2; i < args.length; i++) {
            if (args[i].equals("--")) { inFiles = true; continue; }
            if (inFiles) {
                if (args[i].startsWith("@")) {
                    for (String l : Files.readAllLines(Paths.get(args[i].substring(1)))) if (!l.isBlank()) files.add(new File(l.trim()));
                } else files.add(new File(args[i]));
            } else options.add(args[i]);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = javac.getStandardFileManager(null, Locale.ROOT, null);
        int[] errors = {0};
        DiagnosticListener<JavaFileObject> diags = d -> {
            if (d.getKind() == Diagnostic.Kind.ERROR && errors[0]++ < 20) System.err.println(d);
        };
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, options, null, fm.getJavaFileObjectsFromFiles(files));
        Trees trees = Trees.instance(task);
        Types types = task.getTypes();
        SourcePositions pos = trees.getSourcePositions();
        PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(new FileOutputStream(out), "UTF-8")));
        Map<CompilationUnitTree, String> texts = new HashMap<>();
        int[] rows = {0};
        task.addTaskListener(new TaskListener() {
            @Override public void finished(TaskEvent e) {
                if (e.getKind() != TaskEvent.Kind.ANALYZE) return;
                CompilationUnitTree cu = e.getCompilationUnit();
                String file = rel(root, cu.getSourceFile());
                new TreePathScanner<Void, Void>() {
                    void emit(Tree nameTree, String name, String kind, Element el) {
                        if (name == null) return;
                        long start = nameStart(cu, nameTree, name);
                        if (start < 0) return;
                        long line = cu.getLineMap().getLineNumber(start), col = cu.getLineMap().getColumnNumber(start);
                        String cfile = "-", cls = "-", cname = "-", desc = "-";
                        long dline = 0;
                        if (el != null) {
                            if (el.getKind() == ElementKind.CONSTRUCTOR) {
                                TypeElement t = (TypeElement) el.getEnclosingElement();
                                if (t.getNestingKind() == NestingKind.ANONYMOUS && t.getSuperclass() != null) {
                                    // `new Foo() { … }`: the class named at the site (an interface or
                                    // the superclass), as written
                                    Element sup = types.asElement(t.getInterfaces().isEmpty() ? t.getSuperclass() : t.getInterfaces().get(0));
                                    if (sup != null) t = (TypeElement) sup;
                                    el = t;
                                }
                                cname = t.getSimpleName().toString();
                                cls = owner(t.getEnclosingElement());
                            } else {
                                cname = el.getSimpleName().toString();
                                cls = owner(el.getEnclosingElement());
                            }
                            desc = types.erasure(el.asType()).toString().replace('\t', ' ');
                            TreePath p = trees.getPath(el);
                            if (p != null) {
                                cfile = rel(root, p.getCompilationUnit().getSourceFile());
                                long s = declNameStart(pos, texts, p, cname);
                                dline = s < 0 ? 0 : p.getCompilationUnit().getLineMap().getLineNumber(s);
                            }
                        }
                        w.println(file + "\t" + line + "\t" + col + "\t" + name + "\t" + kind + "\t" + cfile + "\t" + cls + "\t" + cname + "\t" + desc + "\t" + dline);
                        rows[0]++;
                    }

                    @Override public Void visitMethodInvocation(MethodInvocationTree t, Void v) {
                        ExpressionTree sel = t.getMethodSelect();
                        String name = sel instanceof MemberSelectTree ? ((MemberSelectTree) sel).getIdentifier().toString()
                                : sel instanceof IdentifierTree ? ((IdentifierTree) sel).getName().toString() : null;
                        emit(sel, name, "call", trees.getElement(getCurrentPath()));
                        return super.visitMethodInvocation(t, v);
                    }

                    @Override public Void visitNewClass(NewClassTree t, Void v) {
                        Tree id = t.getIdentifier();
                        if (id instanceof AnnotatedTypeTree) id = ((AnnotatedTypeTree) id).getUnderlyingType();
                        if (id instanceof ParameterizedTypeTree) id = ((ParameterizedTypeTree) id).getType();
                        String name = id instanceof MemberSelectTree ? ((MemberSelectTree) id).getIdentifier().toString()
                                : id instanceof IdentifierTree ? ((IdentifierTree) id).getName().toString() : null;
                        emit(id, name, "new", trees.getElement(getCurrentPath()));
                        return super.visitNewClass(t, v);
                    }

                    @Override public Void visitMemberReference(MemberReferenceTree t, Void v) {
                        String name = t.getName().toString();
                        emit(t, name.equals("<init>") ? null : name, "ref", trees.getElement(getCurrentPath()));
                        return super.visitMemberReference(t, v);
                    }

                    long nameStart(CompilationUnitTree cu, Tree t, String name) {
                        // the name is the last occurrence of the identifier within the tree's span
                        long s = pos.getStartPosition(cu, t), end = pos.getEndPosition(cu, t);
                        if (s < 0 || end < 0) return -1;
                        String text = text(texts, cu);
                        if (end > text.length()) return -1;
                        int i = text.lastIndexOf(name, (int) end - name.length());
                        return i >= s ? i : s;
                    }
                }.scan(cu, null);
            }
        });
        task.analyze();
        w.close();
        System.err.println("javac oracle: " + files.size() + " files, " + rows[0] + " sites, " + errors[0] + " errors");
        if (errors[0] > 0) System.exit(1);
    }

    static String owner(Element e) {
        while (e != null && !(e instanceof TypeElement)) e = e.getEnclosingElement();
        while (e != null && ((TypeElement) e).getNestingKind() == NestingKind.ANONYMOUS) {
            e = e.getEnclosingElement();
            while (e != null && !(e instanceof TypeElement)) e = e.getEnclosingElement();
        }
        return e == null ? "-" : e.getSimpleName().toString();
    }

    static long declNameStart(SourcePositions sp, Map<CompilationUnitTree, String> texts, TreePath p, String name) {
        // the callee's name in its declaration: the first occurrence after its modifiers
        CompilationUnitTree cu = p.getCompilationUnit();
        Tree t = p.getLeaf();
        ModifiersTree m = t instanceof MethodTree ? ((MethodTree) t).getModifiers()
                : t instanceof ClassTree ? ((ClassTree) t).getModifiers() : null;
        long from = m != null && sp.getEndPosition(cu, m) > 0 ? sp.getEndPosition(cu, m) : sp.getStartPosition(cu, t);
        String text = text(texts, cu);
        int i = from < 0 ? -1 : text.indexOf(name, (int) from);
        return i >= 0 ? i : from;
    }

    static String text(Map<CompilationUnitTree, String> texts, CompilationUnitTree cu) {
        return texts.computeIfAbsent(cu, c -> {
            try { return c.getSourceFile().getCharContent(true).toString(); } catch (IOException ex) { return ""; }
        });
    }

    static String rel(Path root, JavaFileObject f) {
        Path p = Paths.get(f.toUri()).toAbsolutePath().normalize();
        return p.startsWith(root) ? root.relativize(p).toString() : p.toString();
    }
}
