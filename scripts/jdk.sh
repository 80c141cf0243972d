# shellcheck shell=bash
# Finds a JDK >= 25 and exports JAVA_HOME and PATH for it. Sourced by ./dfx, ./test and .ci/run,
# so the launcher, the tests and CI always use the same JDK.
# Order: $JAVA_HOME, `java` on PATH, /usr/lib/jvm/*; where none is found on Debian with an
# openjdk-25-jdk-headless package, installs it; otherwise prints one line saying what to install.

DFX_MIN_JAVA=25

# Sets dfx_release_version to the feature version (e.g. 25) in HOME/release for the java binary given (HOME/bin/java),
# or to nothing. JAVA_VERSION is in the release file of every JDK since 9; read with shell built-ins only, in this
# shell: starting a JVM (or a subshell per candidate) to ask costs more than dfx's own start-up, and ./dfx runs this on
# every call.
dfx_read_release_version() {
  local line release=""
  dfx_release_version=""
  case "$1" in */bin/java) release=${1%/bin/java}/release ;; esac
  [ -n "$release" ] && [ -r "$release" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in JAVA_VERSION=*) dfx_release_version=${line#JAVA_VERSION=}; break ;; esac
  done <"$release"
  dfx_release_version=${dfx_release_version//\"/}
  case "$dfx_release_version" in 1.*) dfx_release_version=${dfx_release_version#1.} ;; esac
  dfx_release_version=${dfx_release_version%%[!0-9]*}
}

# Prints the feature version (e.g. 25) of the java binary given, or nothing: from its release file, else by asking it.
dfx_java_version() {
  local v
  dfx_read_release_version "$1"
  [ -n "$dfx_release_version" ] && { printf '%s' "$dfx_release_version"; return 0; }
  v=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)
  case "$v" in 1.*) v=${v#1.}; v=${v%%.*} ;; esac
  printf '%s' "$v"
}

dfx_jdk_ok() {
  local java=$1 v
  [ -x "$java" ] || return 1
  [ -x "${java%/*}/javac" ] || return 1
  dfx_read_release_version "$java"
  v=$dfx_release_version
  [ -n "$v" ] || v=$(dfx_java_version "$java")
  [ -n "$v" ] && [ "$v" -ge "$DFX_MIN_JAVA" ] 2>/dev/null
}

dfx_find_jdk() {
  local candidate
  if [ -n "${JAVA_HOME:-}" ] && dfx_jdk_ok "$JAVA_HOME/bin/java"; then
    printf '%s' "$JAVA_HOME"; return 0
  fi
  if candidate=$(command -v java 2>/dev/null); then
    candidate=$(readlink -f "$candidate")
    if dfx_jdk_ok "$candidate"; then dirname "$(dirname "$candidate")"; return 0; fi
  fi
  # DFX_JVM_DIR exists for the launcher's own tests; users never need it.
  for candidate in $(ls -d "${DFX_JVM_DIR:-/usr/lib/jvm}"/*/ 2>/dev/null | sort -rV); do
    candidate=${candidate%/}
    if dfx_jdk_ok "$candidate/bin/java"; then printf '%s' "$candidate"; return 0; fi
  done
  return 1
}

dfx_install_jdk() {
  [ -z "${DFX_NO_INSTALL:-}" ] || return 1
  command -v apt-get >/dev/null 2>&1 || return 1
  apt-cache show openjdk-25-jdk-headless >/dev/null 2>&1 || return 1
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then command -v sudo >/dev/null 2>&1 && sudo="sudo" || return 1; fi
  echo "dfx: no JDK ${DFX_MIN_JAVA}+ found; installing openjdk-25-jdk-headless" >&2
  $sudo apt-get install -y -q openjdk-25-jdk-headless >&2
}

dfx_use_jdk() {
  local home
  if ! home=$(dfx_find_jdk); then
    if dfx_install_jdk; then home=$(dfx_find_jdk) || home=""; fi
  fi
  if [ -z "$home" ]; then
    echo "dfx: needs a JDK ${DFX_MIN_JAVA} or newer (java and javac); none found in JAVA_HOME, on PATH or under /usr/lib/jvm. Install one, e.g. Temurin 25 from https://adoptium.net, and set JAVA_HOME." >&2
    return 1
  fi
  export JAVA_HOME=$home
  export PATH="$JAVA_HOME/bin:$PATH"
  # Maven 3.8's Guice touches sun.misc.Unsafe; JDK 24+ warns about it on every run.
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
}
