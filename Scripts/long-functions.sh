#!/usr/bin/env bash
# Lists the Swift functions longer than a limit (default 60 lines), longest first, as
#
#   LENGTH  FILE:LINE  NAME
#
#   Scripts/long-functions.sh [--limit N] [PATH ...]      (default paths: Sources Shaders)
#
# A function is a `func`, `init`, `deinit` or `subscript` with a body; its length counts the lines from
# the one its keyword is on to the one its closing brace is on, both included (doc comments and
# attributes above it are not counted; nested functions count in their outer one and on their own).
# Braces in strings and comments are ignored. Exits 0 whatever it finds: it measures, it does not judge.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=60
paths=()
while [ $# -gt 0 ]; do
  case "$1" in
    --limit) limit=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "long-functions: unknown option $1" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -gt 0 ] || paths=(Sources Shaders)
script=$(cat <<'PY'
import re, sys

def code_only(text):
    """The text with comments and string contents blanked (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    # Each open string: its delimiter and the depth of `\(` interpolations inside it.
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif text.startswith('/*', i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith('/*', j): depth += 1; j += 2
                elif text.startswith('*/', j): depth -= 1; j += 2
                else: j += 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif c == '"' or (c == '#' and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r'#*', text[i:]).group(0))
            k = i + hashes
            quote = '"""' if text.startswith('"""', k) else '"'
            close = quote + '#' * hashes
            j = k + len(quote)
            while j < n and not text.startswith(close, j):
                if text[j] == '\\' and hashes == 0: j += 2
                else: j += 1
            j = min(n, j + len(close))
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        else:
            out.append(c); i += 1
    return ''.join(out)

keyword = re.compile(r'(?<![\w.])(func\s+([^\s(<]+)|init[?!]?|deinit|subscript)(?=[\s(<{])')
limit = int(sys.argv[1])
found = []
for path in sys.argv[2:]:
    code = code_only(open(path, encoding='utf-8').read())
    for m in keyword.finditer(code):
        i, parens, body = m.end(), 0, None
        while i < len(code):
            c = code[i]
            if c in '([': parens += 1
            elif c in ')]': parens -= 1
            elif c == '{' and parens == 0: body = i; break
            elif c == '{': # a closure default value: skip it
                depth = 1; i += 1
                while i < len(code) and depth:
                    depth += {'{': 1, '}': -1}.get(code[i], 0); i += 1
                continue
            elif c == '}' and parens == 0: break
            elif parens == 0 and keyword.match(code, i) and i > m.end(): break
            i += 1
        if body is None: continue
        depth, j = 0, body
        while j < len(code):
            depth += {'{': 1, '}': -1}.get(code[j], 0)
            if depth == 0: break
            j += 1
        first = code.count('\n', 0, m.start()) + 1
        last = code.count('\n', 0, j) + 1
        length = last - first + 1
        if length > limit:
            name = m.group(2) or m.group(1)
            found.append((length, f'{path}:{first}', name))
for length, where, name in sorted(found, key=lambda f: (-f[0], f[1])):
    print(f'{length:6d}  {where}  {name}')
print(f'{len(found)} functions over {limit} lines', file=sys.stderr)
PY
)
find "${paths[@]}" -name '*.swift' -print0 | sort -z | xargs -0 python3 -c "$script" "$limit"
