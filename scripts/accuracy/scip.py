"""A small reader for SCIP indexes (https://github.com/sourcegraph/scip, scip.proto).

Hand-written protobuf wire-format decoding of just the messages the accuracy benchmark
needs: Index, Metadata/ToolInfo, Document, Occurrence, SymbolInformation. Unknown fields
are skipped, so newer indexers still decode. No dependency beyond the standard library.
"""

from dataclasses import dataclass, field

# SymbolRole bits (scip.proto)
DEFINITION = 0x1
IMPORT = 0x2


def _varint(buf, i):
    shift = result = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7


def _fields(buf):
    """Yields (field_number, wire_type, value) over one message's bytes. Length-delimited
    values are memoryview slices; varints are ints; fixed 32/64-bit values are skipped."""
    i, n = 0, len(buf)
    while i < n:
        key, i = _varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(buf, i)
            yield num, wt, v
        elif wt == 2:
            ln, i = _varint(buf, i)
            yield num, wt, buf[i:i + ln]
            i += ln
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        else:
            raise ValueError(f"unsupported wire type {wt} at byte {i}")


def _int32(v):
    # int32 is encoded as a 64-bit two's complement varint when negative
    return v - (1 << 64) if v >= 1 << 63 else v


def _packed_int32(val, wt):
    if wt == 0:
        return [_int32(val)]
    out, i, buf = [], 0, val
    while i < len(buf):
        v, i = _varint(buf, i)
        out.append(_int32(v))
    return out


@dataclass
class Occurrence:
    range: list          # [line, start_char, end_char] or [line, start_char, end_line, end_char], 0-based
    symbol: str = ""
    roles: int = 0
    enclosing_range: list = field(default_factory=list)

    @property
    def start(self):
        return self.range[0], self.range[1]

    @property
    def end(self):
        r = self.range
        return (r[0], r[2]) if len(r) == 3 else (r[2], r[3])


@dataclass
class SymbolInformation:
    symbol: str = ""
    kind: int = 0
    display_name: str = ""
    enclosing_symbol: str = ""
    relationships: list = field(default_factory=list)  # (symbol, is_implementation, is_definition)


@dataclass
class Document:
    relative_path: str = ""
    language: str = ""
    occurrences: list = field(default_factory=list)
    symbols: list = field(default_factory=list)


@dataclass
class Index:
    tool_name: str = ""
    tool_version: str = ""
    project_root: str = ""
    documents: list = field(default_factory=list)
    external_symbols: list = field(default_factory=list)


def _str(v):
    return bytes(v).decode("utf-8", "replace")


def _occurrence(buf):
    o = Occurrence(range=[])
    for num, wt, v in _fields(buf):
        if num == 1:
            o.range.extend(_packed_int32(v, wt))
        elif num == 2:
            o.symbol = _str(v)
        elif num == 3:
            o.roles = v
        elif num == 7:
            o.enclosing_range.extend(_packed_int32(v, wt))
    return o


def _relationship(buf):
    sym, impl, defn = "", False, False
    for num, _, v in _fields(buf):
        if num == 1:
            sym = _str(v)
        elif num == 3:
            impl = bool(v)
        elif num == 5:
            defn = bool(v)
    return sym, impl, defn


def _symbol_information(buf):
    s = SymbolInformation()
    for num, _, v in _fields(buf):
        if num == 1:
            s.symbol = _str(v)
        elif num == 4:
            s.relationships.append(_relationship(v))
        elif num == 5:
            s.kind = v
        elif num == 6:
            s.display_name = _str(v)
        elif num == 8:
            s.enclosing_symbol = _str(v)
    return s


def _document(buf):
    d = Document()
    for num, _, v in _fields(buf):
        if num == 1:
            d.relative_path = _str(v)
        elif num == 2:
            d.occurrences.append(_occurrence(v))
        elif num == 3:
            d.symbols.append(_symbol_information(v))
        elif num == 4:
            d.language = _str(v)
    return d


def read_index(path):
    data = memoryview(open(path, "rb").read())
    idx = Index()
    for num, _, v in _fields(data):
        if num == 1:  # Metadata
            for mnum, _, mv in _fields(v):
                if mnum == 2:  # ToolInfo
                    for tnum, _, tv in _fields(mv):
                        if tnum == 1:
                            idx.tool_name = _str(tv)
                        elif tnum == 2:
                            idx.tool_version = _str(tv)
                elif mnum == 3:
                    idx.project_root = _str(mv)
        elif num == 2:
            idx.documents.append(_document(v))
        elif num == 3:
            idx.external_symbols.append(_symbol_information(v))
    return idx
