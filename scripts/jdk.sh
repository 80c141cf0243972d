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

# Sets dfx_path_java_home to the home of the `java` found on PATH (HOME/bin/java), or to nothing when there is none.
# Built-ins only where it can be: ./dfx runs this on every call, and on a loaded machine each process a call starts
# costs more than the check itself. A java that is no symbolic link lies in its home's bin; one that is (Debian's
# /usr/bin/java -> /etc/alternatives/java -> ...) is matched by inode against the JDKs in the JVM folder, and only a
# link to somewhere else is resolved with readlink(1).
dfx_path_java_home() {
  local java candidate
  dfx_path_java_home=""
  hash java 2>/dev/null || return 0
  java=${BASH_CMDS[java]:-}
  [ -n "$java" ] || return 0
  case "$java" in /*) ;; *) java=$PWD/$java ;; esac
  if [ ! -L "$java" ]; then
    case "$java" in */bin/java) dfx_path_java_home=${java%/bin/java}; return 0 ;; esac
  fi
  for candidate in "${DFX_JVM_DIR:-/usr/lib/jvm}"/*/; do
    candidate=${candidate%/}
    # a folder that is a link names a JDK by another name (java-1.17.0-openjdk-amd64): its target is listed too
    if [ ! -L "$candidate" ] && [ "$candidate/bin/java" -ef "$java" ]; then
      dfx_path_java_home=$candidate
      return 0
    fi
  done
  java=$(readlink -f "$java")
  dfx_path_java_home=${java%/*}
  dfx_path_java_home=${dfx_path_java_home%/*}
}

# Sets dfx_jdk_home to the JDK to use, or to nothing: $JAVA_HOME, then `java` on PATH, then the newest JDK in the JVM
# folder (/usr/lib/jvm) whose release file says its version (none of them is started); then, only if none does, the
# folder's other JDKs, newest name first, asked for their version.
dfx_find_jdk() {
  local candidate best="" best_version=0 unversioned=()
  dfx_jdk_home=""
  if [ -n "${JAVA_HOME:-}" ] && dfx_jdk_ok "$JAVA_HOME/bin/java"; then
    dfx_jdk_home=$JAVA_HOME; return 0
  fi
  dfx_path_java_home
  if [ -n "$dfx_path_java_home" ] && dfx_jdk_ok "$dfx_path_java_home/bin/java"; then
    dfx_jdk_home=$dfx_path_java_home; return 0
  fi
  # DFX_JVM_DIR exists for the launcher's own tests; users never need it.
  for candidate in "${DFX_JVM_DIR:-/usr/lib/jvm}"/*/; do
    candidate=${candidate%/}
    [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    dfx_read_release_version "$candidate/bin/java"
    if [ -z "$dfx_release_version" ]; then
      unversioned=("$candidate" "${unversioned[@]}")
    elif [ "$dfx_release_version" -ge "$DFX_MIN_JAVA" ] 2>/dev/null \
        && { [ "$dfx_release_version" -gt "$best_version" ] || [ "$dfx_release_version" -eq "$best_version" ]; }; then
      best=$candidate best_version=$dfx_release_version # names sort ascending: the last of a version wins
    fi
  done
  if [ -n "$best" ]; then
    dfx_jdk_home=$best; return 0
  fi
  for candidate in ${unversioned[@]+"${unversioned[@]}"}; do
    if dfx_jdk_ok "$candidate/bin/java"; then dfx_jdk_home=$candidate; return 0; fi
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
  if ! dfx_find_jdk && dfx_install_jdk; then
    dfx_find_jdk || true
  fi
  if [ -z "$dfx_jdk_home" ]; then
    echo "dfx: needs a JDK ${DFX_MIN_JAVA} or newer (java and javac); none found in JAVA_HOME, on PATH or under /usr/lib/jvm. Install one, e.g. Temurin 25 from https://adoptium.net, and set JAVA_HOME." >&2
    return 1
  fi
  export JAVA_HOME=$dfx_jdk_home
  export PATH="$JAVA_HOME/bin:$PATH"
  # Maven 3.8's Guice touches sun.misc.Unsafe; JDK 24+ warns about it on every run.
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
}
