// The C# compiler's own view of which project types each source file's compiled code refers to, read from the
// assembly mcs built (with -debug) through Mono.Cecil; no engine code. Prints tab-separated lines:
//   T <type> <probe name> <kind>             every source type of the assembly (nested ones too), the C# name a probe
//                                            compile uses to make the compiler say where it is declared, and its kind
//                                            (interface, enum, static class, other)
//   C <type> <field>                         a constant of <type> (an enum member, a const): the compiler copies its
//                                            value where it is used, leaving no reference behind
//   S <type> <file>                          a file holding code of <type> (its methods' sequence points, and those
//                                            of the lambdas, iterators and async state machines nested in it)
//   R <file> <type>                          code at <file> (a method body's sequence points) refers to <type>
//   R @<owner> <type>                        a reference outside any method body (base types, interfaces, fields,
//                                            properties, events, attributes, generic constraints, bodiless
//                                            signatures) of type <owner>: the files declaring <owner> hold it
// Usage: mono csharp_reference.exe <assembly.dll>   (the .mdb beside it; Mono.Cecil 0.9.5 and Mono.Cecil.Mdb from
// Debian's libmono-cecil-cil-dev, /usr/lib/mono-cecil)
using System;
using System.Collections.Generic;
using System.Linq;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Mdb;

static class CsharpReference {
  static ModuleDefinition module;
  static readonly HashSet<string> printed = new HashSet<string>();

  static void Emit(string line) {
    if (printed.Add(line)) Console.Out.WriteLine(line);
  }

  static bool Generated(TypeReference t) {
    for (; t != null; t = t.DeclaringType) if (t.Name.StartsWith("<")) return true;
    return false;
  }

  /** The project types a type reference names (element types, generic arguments), as full names. */
  static IEnumerable<string> Targets(TypeReference t) {
    if (t == null || t is GenericParameter) yield break;
    var spec = t as TypeSpecification;
    if (spec != null) {
      foreach (var x in Targets(spec.ElementType)) yield return x;
      var gi = t as GenericInstanceType;
      if (gi != null) foreach (var a in gi.GenericArguments) foreach (var x in Targets(a)) yield return x;
      yield break;
    }
    TypeDefinition def = null;
    if (t.Module == module) {
      try { def = t.Resolve(); } catch { def = null; }
    }
    if (def == null || def.Module != module || Generated(def)) yield break;
    yield return def.FullName;
  }

  static void Refer(string from, TypeReference t) {
    foreach (var x in Targets(t)) Emit("R\t" + from + "\t" + x);
  }

  static void Argument(string from, CustomAttributeArgument a) {
    var tr = a.Value as TypeReference;
    if (tr != null) Refer(from, tr);
    var arr = a.Value as CustomAttributeArgument[];
    if (arr != null) foreach (var x in arr) Argument(from, x);
    if (a.Value is CustomAttributeArgument) Argument(from, (CustomAttributeArgument) a.Value);
  }

  static void Attributes(string from, ICustomAttributeProvider p) {
    if (p == null || !p.HasCustomAttributes) return;
    foreach (var ca in p.CustomAttributes) {
      Refer(from, ca.AttributeType);
      foreach (var a in ca.ConstructorArguments) Argument(from, a);
      foreach (var a in ca.Fields) Argument(from, a.Argument);
      foreach (var a in ca.Properties) Argument(from, a.Argument);
    }
  }

  static void Constraints(string from, IGenericParameterProvider p) {
    if (!p.HasGenericParameters) return;
    foreach (var g in p.GenericParameters) {
      Attributes(from, g);
      foreach (var c in g.Constraints) Refer(from, c);
    }
  }

  static string Probe(TypeDefinition t) {
    var name = t.Name;
    var tick = name.IndexOf('`');
    var own = t.GenericParameters.Count - (t.DeclaringType != null ? t.DeclaringType.GenericParameters.Count : 0);
    if (tick >= 0) name = name.Substring(0, tick);
    if (own > 0) name += "<" + string.Join(",", Enumerable.Repeat("object", own)) + ">";
    if (t.DeclaringType != null) return Probe(t.DeclaringType) + "." + name;
    return "global::" + (t.Namespace.Length > 0 ? t.Namespace + "." : "") + name;
  }

  /** The outermost type a compiler-generated type (closure, iterator, state machine) belongs to. */
  static TypeDefinition Owner(TypeDefinition t) {
    while (t.DeclaringType != null && Generated(t)) t = t.DeclaringType;
    return t;
  }

  static void Main(string[] args) {
    var rp = new ReaderParameters { ReadSymbols = true, SymbolReaderProvider = new MdbReaderProvider() };
    module = ModuleDefinition.ReadModule(args[0], rp);
    foreach (var t in module.GetTypes()) {
      if (t.Name == "<Module>") continue;
      var owner = Owner(t);
      if (Generated(owner)) continue;
      if (!Generated(t)) {
        var kind = t.IsInterface ? "interface" : t.IsEnum ? "enum" : t.IsAbstract && t.IsSealed ? "static" : "other";
        Emit("T\t" + t.FullName + "\t" + Probe(t) + "\t" + kind);
        foreach (var f in t.Fields) if (f.HasConstant) Emit("C\t" + t.FullName + "\t" + f.Name);
      }
      var at = "@" + owner.FullName;
      Refer(at, t.BaseType);
      foreach (var i in t.Interfaces) Refer(at, i);
      Attributes(at, t);
      Constraints(at, t);
      foreach (var f in t.Fields) {
        Refer(at, f.FieldType);
        Attributes(at, f);
      }
      foreach (var p in t.Properties) {
        Refer(at, p.PropertyType);
        Attributes(at, p);
      }
      foreach (var e in t.Events) {
        Refer(at, e.EventType);
        Attributes(at, e);
      }
      foreach (var m in t.Methods) {
        var docs = m.HasBody
          ? m.Body.Instructions.Where(i => i.SequencePoint != null).Select(i => i.SequencePoint.Document.Url).Distinct().ToList()
          : new List<string>();
        foreach (var d in docs) Emit("S\t" + owner.FullName + "\t" + d);
        var froms = docs.Count > 0 ? docs : new List<string> { at };
        foreach (var from in froms) {
          Refer(from, m.ReturnType);
          Attributes(from, m);
          Attributes(from, m.MethodReturnType);
          Constraints(from, m);
          foreach (var p in m.Parameters) {
            Refer(from, p.ParameterType);
            Attributes(from, p);
          }
          foreach (var o in m.Overrides) Refer(from, o.DeclaringType);
          if (!m.HasBody) continue;
          foreach (var v in m.Body.Variables) Refer(from, v.VariableType);
          foreach (var h in m.Body.ExceptionHandlers) Refer(from, h.CatchType);
          foreach (var ins in m.Body.Instructions) {
            var op = ins.Operand;
            var tr = op as TypeReference;
            if (tr != null) Refer(from, tr);
            var mr = op as MemberReference;
            if (mr != null && tr == null) {
              Refer(from, mr.DeclaringType);
              var gm = op as GenericInstanceMethod;
              if (gm != null) foreach (var a in gm.GenericArguments) Refer(from, a);
            }
          }
        }
      }
    }
  }
}
