// The truth for bench/languages-java.mjs: javac's own name resolution. Parses and attributes the given sources
// (options before `--`, source files after) and prints, for every simple or qualified name in them that javac
// resolves to a type (imports, declarations, expressions, annotations), one line `<file>\t<file declaring its top-level type>`
// when that type comes from source (names javac makes up, with no position in the source, are left out). Compile errors (a dependency not on the class path) do not stop attribution.
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaReferences {
  public static void main(String[] args) throws Exception {
    int sep = Arrays.asList(args).indexOf("--");
    List<String> options = new ArrayList<>(Arrays.asList(args).subList(0, sep));
    List<File> files = new ArrayList<>();
    for (String f : Arrays.asList(args).subList(sep + 1, args.length)) files.add(new File(f));
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, null, null);
    options.add("-proc:none");
    options.add("-XDshould-stop.ifError=FLOW");
    JavacTask task = (JavacTask) compiler.getTask(null, fm, diagnostics, options, null, fm.getJavaFileObjectsFromFiles(files));
    Iterable<? extends CompilationUnitTree> units = task.parse();
    task.analyze();
    Trees trees = Trees.instance(task);
    TreeSet<String> out = new TreeSet<>();
    for (CompilationUnitTree unit : units) {
      String from = new File(unit.getSourceFile().toUri()).getPath();
      new TreePathScanner<Void, Void>() {
        void note() {
          // a tree javac made up (an implicit lambda parameter's type) is no name written in the source
          if (trees.getSourcePositions().getStartPosition(getCurrentPath().getCompilationUnit(), getCurrentPath().getLeaf()) < 0) return;
          Element e = trees.getElement(getCurrentPath());
          if (!(e instanceof TypeElement)) return;
          while (e.getEnclosingElement() != null && e.getEnclosingElement().getKind() != ElementKind.PACKAGE && e.getEnclosingElement().getKind() != ElementKind.MODULE) e = e.getEnclosingElement();
          TreePath p = trees.getPath(e);
          if (p == null) return;
          String to = new File(p.getCompilationUnit().getSourceFile().toUri()).getPath();
          if (!to.equals(from)) out.add(from + "\t" + to);
        }
        @Override public Void visitIdentifier(IdentifierTree t, Void v) { note(); return super.visitIdentifier(t, v); }
        @Override public Void visitMemberSelect(MemberSelectTree t, Void v) { note(); return super.visitMemberSelect(t, v); }
      }.scan(unit, null);
    }
    for (String line : out) System.out.println(line);
    long errors = diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR).count();
    diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR).limit(Integer.getInteger("show", 0)).forEach(d -> System.err.println(d));
    System.err.println("errors " + errors);
  }
}
