#!/bin/bash
# parameter-expansion patterns and a regex on a continued line, as bash-completion writes them

_trim_option()
{
    local option=$1 host=$2
    # a bracket expression holding bytes the grammar balances
    option=${option%%[<{().[]*}
    # a `]` closing no bracket expression, then an extended glob
    host="${host%]?(:+([0-9]))}"
    # classes, a `]` first in the set, a nested expansion: read as written
    host=${host##*[[:blank:]]} && host=${host%%[]x]} && host=${host#"${option}"}
    printf '%s\n' "${option/=*/=}"
}

_parse_line()
{
    local line=$1
    while [[ $line =~ \
        ((^|[^-])-[A-Za-z0-9?][[:space:]]+)\[?[A-Z0-9]+([,_-]+[A-Z0-9]+)?(\.\.+)?\]? ]]; do
        line=${line/"${BASH_REMATCH[0]}"/"${BASH_REMATCH[1]}"}
    done
    _trim_option "$line"
}
