# shellcheck shell=bash
# Makes the JVM read and write file names as UTF-8 whatever the caller's locale. Sourced by ./dfx.
# Linux file names are bytes; the JDK turns them into Strings with the charset of the LC_CTYPE locale
# (sun.jnu.encoding, which -D cannot override since JDK 17), so under LC_ALL=C or POSIX every non-ASCII
# path is "unmappable" and refused. Only LC_CTYPE changes: when LC_ALL is set it is moved to LANG, so
# every other category (messages, numbers, collation) keeps the caller's value, for dfx and for the
# command `dfx stat` runs (which therefore sees LC_CTYPE=C.UTF-8 where the caller's was not UTF-8).

dfx_utf8_file_names() {
  local ctype=${LC_ALL:-${LC_CTYPE:-${LANG:-}}}
  case "$ctype" in
    *[Uu][Tt][Ff]-8* | *[Uu][Tt][Ff]8*) return 0 ;;
  esac
  if [ -n "${LC_ALL:-}" ]; then
    local v
    for v in LC_COLLATE LC_MESSAGES LC_MONETARY LC_NUMERIC LC_TIME LC_ADDRESS LC_IDENTIFICATION \
             LC_MEASUREMENT LC_NAME LC_PAPER LC_TELEPHONE; do
      unset "$v"
    done
    export LANG=$LC_ALL
    unset LC_ALL
  fi
  export LC_CTYPE=C.UTF-8
}

# Refuses (one dfx: line, status 1) an argument that is not valid UTF-8. The JVM decodes its arguments as
# UTF-8 and turns each invalid byte into U+FFFD, so `dfx record -o $'run\xfe'` would create a directory of
# another name and report success (trial 3, N8). Without iconv(1) nothing is checked.
dfx_refuse_invalid_utf8() {
  # plain ASCII (nearly every command line) is valid UTF-8: no need to start iconv
  local LC_ALL=C
  case "$*" in *[![:ascii:]]*) ;; *) return 0 ;; esac
  unset LC_ALL
  command -v iconv >/dev/null 2>&1 || return 0
  printf '%s\0' "$@" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 && return 0
  local i=0 a
  for a in "$@"; do
    i=$((i + 1))
    if ! printf '%s' "$a" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then
      printf 'dfx: argument %d (%q) is not valid UTF-8; the JVM would read it as another name (give a UTF-8 name)\n' \
        "$i" "$a" >&2
      return 1
    fi
  done
}
