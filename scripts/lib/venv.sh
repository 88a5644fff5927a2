# shellcheck shell=bash
# pinned_venv NAME CHECK PACKAGE...: a Python venv of its own under the user's cache,
# ${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/NAME, holding exactly the pinned PACKAGEs (pip
# requirement specifiers). Made again only when the pins change or CHECK (a command run with the
# venv's bin/ first on PATH) fails; the venv's folder is printed on stdout.
pinned_venv() {
    local name=$1 check=$2
    shift 2
    local venv="${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/$name" want="$*"
    if [ "$(cat "$venv/.installed" 2>/dev/null || true)" != "$want" ] ||
        ! PATH="$venv/bin:$PATH" bash -c "$check" >/dev/null 2>&1; then
        echo "installing $want into $venv" >&2
        # Debian's python3 makes venvs only with its python3-venv package (a bare CI container
        # lacks it).
        if ! python3 -c 'import ensurepip' 2>/dev/null && command -v apt-get >/dev/null; then
            local sudo=""
            [ "$(id -u)" -eq 0 ] || sudo=sudo
            $sudo apt-get update -qq >&2
            $sudo apt-get install -y -qq python3-venv >/dev/null
        fi
        rm -rf "$venv"
        python3 -m venv "$venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check "$@" >&2
        echo "$want" >"$venv/.installed"
    fi
    echo "$venv"
}
