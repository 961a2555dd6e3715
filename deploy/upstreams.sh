#!/bin/sh
# Writes nginx's list of Zashiki servers (the upstreams nginx.conf includes), one line per
# PORT (a server on 127.0.0.1) or HOST:PORT given, to stdout:
#   deploy/upstreams.sh 8001 8002 8003 >run/nginx/zashiki-upstreams.conf
# Then reload nginx (nginx ... -s reload) to pick up a changed list. max_fails=0: a server
# that refused a connection (restarting) is tried again at the next request, not left out
# for nginx's 10 s fail_timeout; a refused connection costs nothing, the next server is
# tried at once.
set -eu
if [ $# -eq 0 ]; then
  echo "usage: $0 PORT|HOST:PORT ..." >&2
  exit 2
fi
lines="# The Zashiki servers behind the proxy (written by deploy/upstreams.sh)."
for server in "$@"; do
  case $server in
    *:*) host=${server%:*} port=${server##*:} ;;
    *) host=127.0.0.1 port=$server ;;
  esac
  case $port in
    "" | *[!0-9]* | 0*) port=0 ;;
  esac
  if [ -z "$host" ] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
    echo "$0: $server: not a port (1-65535)" >&2
    exit 2
  fi
  lines="$lines
server $host:$port max_fails=0;"
done
printf '%s\n' "$lines"
