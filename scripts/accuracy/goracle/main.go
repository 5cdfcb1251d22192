// The Go call-graph oracle of the accuracy benchmark: go/types over the standard library.
//
// Usage: go run main.go OUT.tsv SRC PKG ...
//
// Type-checks each package PKG (an import path, e.g. net/http) from the sources under SRC (a
// copy of a GOROOT's src/, such as the corpus: its GoFiles for the host platform, no tests)
// and writes one row per call site, tab-separated:
//
//	file  line  column  name  kind  callee-file  callee-class  callee-name  descriptor  decl-line
//
// Imports are type-checked from source too (go/importer's "source" importer) in the
// installed toolchain's GOROOT, which must be the same Go version as SRC (its generated
// files, e.g. runtime/internal/sys/zversion.go, are not in a source copy); callee positions
// there are mapped back to SRC by their path under src/.
//
// file: relative to SRC; line/column 1-based, of the name as written (`F` in
// `pkg.F(x)`, `m` in `x.m()`); kind: call (a function or method), value (a called variable,
// field or parameter of function type), builtin (len, append, …), conversion (`T(x)`);
// callee-file: relative to SRC (`-` for builtins and values); callee-class: the
// receiver's named type for a method (an interface for an interface method; `-` for a
// function); descriptor: the callee's type; decl-line: the line of the callee's name.
// Each call is resolved through types.Info.Selections (methods, promoted ones included)
// and types.Info.Uses (functions, qualified names).
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	out, src, pkgs := os.Args[1], os.Args[2], os.Args[3:]
	src, _ = filepath.Abs(src)
	build.Default.GOPATH = ""
	build.Default.CgoEnabled = false
	gosrc := filepath.Join(build.Default.GOROOT, "src")
	fset := token.NewFileSet()
	imp := mapped{importer.ForCompiler(fset, "source", nil).(types.ImporterFrom), src, gosrc}
	f, err := os.Create(out)
	if err != nil {
		panic(err)
	}
	w := bufio.NewWriter(f)
	rel := func(p token.Position) string {
		for _, base := range []string{src, gosrc} {
			if r, err := filepath.Rel(base, p.Filename); err == nil && !strings.HasPrefix(r, "..") {
				return r
			}
		}
		return p.Filename
	}
	rows := 0
	emit := func(id *ast.Ident, kind string, obj types.Object) {
		row(w, fset, rel, id, kind, obj)
		rows++
	}
	for _, path := range pkgs {
		bp, err := build.Default.ImportDir(filepath.Join(src, path), 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "go oracle:", err)
			os.Exit(1)
		}
		var files []*ast.File
		for _, name := range bp.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				fmt.Fprintln(os.Stderr, "go oracle:", err)
				os.Exit(1)
			}
			files = append(files, af)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
			Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: imp, FakeImportC: true}
		if _, err := conf.Check(path, fset, files, info); err != nil {
			fmt.Fprintln(os.Stderr, "go oracle:", path, err)
			os.Exit(1)
		}
		for _, af := range files {
			ast.Inspect(af, func(n ast.Node) bool {
				if lit, ok := n.(*ast.CompositeLit); ok { // T{…}: a site (of the type), not a call
					t := lit.Type
					if ix, ok := t.(*ast.IndexExpr); ok {
						t = ix.X
					}
					var id *ast.Ident
					switch e := t.(type) {
					case *ast.Ident:
						id = e
					case *ast.SelectorExpr:
						id = e.Sel
					}
					if id != nil {
						emit(id, "literal", info.Uses[id])
					}
					return true
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fun := unparen(call.Fun)
				if ix, ok := fun.(*ast.IndexExpr); ok { // f[T](x)
					fun = ix.X
				} else if ix, ok := fun.(*ast.IndexListExpr); ok {
					fun = ix.X
				}
				var id *ast.Ident
				var obj types.Object
				switch e := fun.(type) {
				case *ast.Ident:
					id, obj = e, info.Uses[e]
				case *ast.SelectorExpr:
					id = e.Sel
					if s := info.Selections[e]; s != nil {
						obj = s.Obj()
					} else {
						obj = info.Uses[e.Sel]
					}
				default:
					return true
				}
				kind := "call"
				if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
					kind = "conversion"
				}
				emit(id, kind, obj)
				return true
			})
		}
	}
	if err := w.Flush(); err != nil {
		panic(err)
	}
	f.Close()
	fmt.Fprintf(os.Stderr, "go oracle: %d packages, %d sites\n", len(pkgs), rows)
}

// row writes one site; kind is call, conversion or literal, refined by what obj is.
func row(w *bufio.Writer, fset *token.FileSet, rel func(token.Position) string, id *ast.Ident, kind string, obj types.Object) {
	pos := fset.Position(id.Pos())
	cfile, cls, cname, desc, dline := "-", "-", id.Name, "-", 0
	switch o := obj.(type) {
	case *types.TypeName:
		if kind == "call" {
			kind = "conversion"
		}
		if o.Pos().IsValid() {
			dp := fset.Position(o.Pos())
			cfile, dline = rel(dp), dp.Line
		}
	case *types.Func:
		cname, desc = o.Name(), o.Type().String()
		if o.Pos().IsValid() {
			dp := fset.Position(o.Pos())
			cfile, dline = rel(dp), dp.Line
		}
		if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
			t := sig.Recv().Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if nt, ok := t.(*types.Named); ok {
				cls = nt.Obj().Name()
			}
		}
	case *types.Builtin:
		kind = "builtin"
	case *types.Var:
		kind, desc = "value", o.Type().String()
	case nil:
	default:
		if kind == "call" {
			kind = "value"
		}
	}
	fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", rel(pos), pos.Line, pos.Column, id.Name, kind, cfile, cls, cname,
		strings.ReplaceAll(desc, "\t", " "), dline)
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// mapped imports from the toolchain's GOROOT what a package under SRC imports, as if it
// were at the same place there (so the standard library's vendor/ directory applies).
type mapped struct {
	types.ImporterFrom
	src, gosrc string
}

func (m mapped) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if r, err := filepath.Rel(m.src, dir); err == nil && !strings.HasPrefix(r, "..") {
		dir = filepath.Join(m.gosrc, r)
	}
	return m.ImporterFrom.ImportFrom(path, dir, mode)
}
