# bash completion for ridge: commands, each command's options (read from its --help,
# so they never go stale), zoo model names, hardware descriptor and system names and plot kinds.
# Installed as share/bash-completion/completions/ridge; or `source` this file.

# The names in the first column of `ridge list WHAT` (the rows after the dashed rule).
_ridge_names() {
  "${1}" list "${2}" 2>/dev/null | awk 'ruled && NF { print $1 } /^-+( +-+)*$/ { ruled = 1 }'
}

_ridge() {
  local ridge="${COMP_WORDS[0]}" cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  if [[ ${COMP_CWORD} -eq 1 ]]; then
    local commands
    commands=$("${ridge}" --help 2>/dev/null | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { exit }')
    mapfile -t COMPREPLY < <(compgen -W "${commands} --help --version" -- "${cur}")
    return
  fi
  local command="${COMP_WORDS[1]}"
  case "${prev}" in
    --hw)
      mapfile -t COMPREPLY < <(compgen -W "$(_ridge_names "${ridge}" hardware)" -- "${cur}")
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "${cur}")
      return ;;
    --hw-model)
      mapfile -t COMPREPLY < <(compgen -W "$(_ridge_names "${ridge}" hw-models)" -- "${cur}")
      return ;;
    --system)
      mapfile -t COMPREPLY < <(compgen -W "$(_ridge_names "${ridge}" systems)" -- "${cur}")
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "${cur}")
      return ;;
    --output|-o|--data|--measurements)
      mapfile -t COMPREPLY < <(compgen -f -- "${cur}")
      return ;;
  esac
  if [[ "${cur}" == -* ]]; then
    local options
    options=$("${ridge}" "${command}" --help 2>/dev/null | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u)
    mapfile -t COMPREPLY < <(compgen -W "${options}" -- "${cur}")
    return
  fi
  case "${command}" in
    analyze|compare|query|memory|generate|plan)
      mapfile -t COMPREPLY < <(compgen -W "$(_ridge_names "${ridge}" models)" -- "${cur}") ;;
    list)
      mapfile -t COMPREPLY < <(compgen -W "models hardware hw-models systems" -- "${cur}") ;;
    plot)
      if [[ ${COMP_CWORD} -eq 2 ]]; then
        mapfile -t COMPREPLY < <(compgen -W "roofline layers sweep compare" -- "${cur}")
      else
        mapfile -t COMPREPLY < <(compgen -W "$(_ridge_names "${ridge}" models)" -- "${cur}")
      fi ;;
  esac
  mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "${cur}")
}

complete -F _ridge ridge
