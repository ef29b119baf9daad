# SPDX-License-Identifier: GPL-3.0-or-later
"""D-Bus values for the command-line clients: typed Python values to busctl
arguments and to GVariant text (gdbus call), busctl's JSON back to plain values.

Values of "v" and of a{sv} entries are (signature, value) pairs.
"""


class DBusError(Exception):
    def __init__(self, name, message):
        super().__init__(f'{name}: {message}')
        self.name = name
        self.message = message



def split_signature(sig):
    """Splits a D-Bus signature into its complete types."""
    types, i = [], 0
    while i < len(sig):
        j = _complete_type_end(sig, i)
        types.append(sig[i:j])
        i = j
    return types


def _complete_type_end(sig, i):
    c = sig[i]
    if c == 'a':
        return _complete_type_end(sig, i + 1)
    if c in '({':
        close = ')' if c == '(' else '}'
        i += 1
        while sig[i] != close:
            i = _complete_type_end(sig, i)
        return i + 1
    return i + 1


def busctl_args(sig, values):
    types = split_signature(sig)
    if len(types) != len(values):
        raise ValueError(f'signature {sig} needs {len(types)} values, got {len(values)}')
    out = []
    for t, v in zip(types, values):
        out += _busctl_value(t, v)
    return out


def _busctl_value(t, v):
    if t == 'v':
        vsig, vval = v
        return [vsig] + _busctl_value(vsig, vval)
    if t.startswith('a{'):
        kt, vt = split_signature(t[2:-1])
        out = [str(len(v))]
        for key, val in v.items():
            out += _busctl_value(kt, key) + _busctl_value(vt, val)
        return out
    if t.startswith('a'):
        out = [str(len(v))]
        for item in v:
            out += _busctl_value(t[1:], item)
        return out
    if t.startswith('('):
        out = []
        for it, item in zip(split_signature(t[1:-1]), v):
            out += _busctl_value(it, item)
        return out
    if t == 'b':
        return ['true' if v else 'false']
    return [str(v)]


_GVARIANT_INT = {'y': 'byte', 'n': 'int16', 'q': 'uint16', 'i': 'int32',
                 'u': 'uint32', 'x': 'int64', 't': 'uint64', 'h': 'handle'}


def gvariant_text(t, v):
    """The GVariant text form (as gdbus call parses it) of a typed value."""
    if t == 's':
        return "'" + str(v).replace('\\', '\\\\').replace("'", "\\'") + "'"
    if t == 'o':
        return 'objectpath ' + gvariant_text('s', v)
    if t == 'g':
        return 'signature ' + gvariant_text('s', v)
    if t in _GVARIANT_INT:
        return f'{_GVARIANT_INT[t]} {int(v)}'
    if t == 'd':
        return f'@d {float(v)!r}'
    if t == 'b':
        return 'true' if v else 'false'
    if t == 'v':
        vsig, vval = v
        return f'<{gvariant_text(vsig, vval)}>'
    if t.startswith('a{'):
        kt, vt = split_signature(t[2:-1])
        items = ', '.join(f'{gvariant_text(kt, k)}: {gvariant_text(vt, x)}' for k, x in v.items())
        return f'@{t} {{{items}}}'
    if t.startswith('a'):
        return f'@{t} [' + ', '.join(gvariant_text(t[1:], x) for x in v) + ']'
    if t.startswith('('):
        parts = [gvariant_text(it, x) for it, x in zip(split_signature(t[1:-1]), v)]
        return '(' + ', '.join(parts) + (',)' if len(parts) == 1 else ')')
    raise ValueError(f'cannot write type {t} as GVariant text')


def unwrap(value):
    """Turns busctl's JSON variants ({"type": .., "data": ..}) into plain values."""
    if isinstance(value, dict) and set(value) == {'type', 'data'}:
        return unwrap(value['data'])
    if isinstance(value, dict):
        return {k: unwrap(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unwrap(v) for v in value]
    return value
