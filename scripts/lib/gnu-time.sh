# Sourced by the benchmark scripts: GNU time (/usr/bin/time) reports a command's peak resident set
# size and CPU time; installs it once from the machine's apt sources if it is missing.
if ! [ -x /usr/bin/time ]; then
    echo "installing GNU time" >&2
    if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
    $sudo apt-get update -qq >&2
    $sudo apt-get install -y -qq time >&2
fi
