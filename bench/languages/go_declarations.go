// Top-level declarations of a Go tree by the go/parser package (not ours): every func without a receiver and every
// type, with its file and line. Usage: go run go_declarations.go <tree>. Prints JSON [[name, file, line, kind], ...],
// paths relative to <tree>; testdata/ and vendor/ are skipped.
package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	root := os.Args[1]
	out := [][]interface{}{}
	fset := token.NewFileSet()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			switch x := decl.(type) {
			case *ast.FuncDecl:
				if x.Recv == nil {
					out = append(out, []interface{}{x.Name.Name, rel, fset.Position(x.Pos()).Line, "function"})
				}
			case *ast.GenDecl:
				if x.Tok == token.TYPE {
					for _, s := range x.Specs {
						t := s.(*ast.TypeSpec)
						out = append(out, []interface{}{t.Name.Name, rel, fset.Position(t.Name.Pos()).Line, "type"})
					}
				}
			}
		}
		return nil
	})
	json.NewEncoder(os.Stdout).Encode(out)
}
