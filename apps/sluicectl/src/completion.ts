import type { Command } from 'commander';

function words(cmd: Command): string[] {
  return [...cmd.commands.map((c) => c.name()), ...cmd.options.map((o) => o.long).filter((l): l is string => l !== undefined)];
}

/**
 * A completion script made from the program's own command tree (so it never lists a command the
 * program lacks): the first word completes to commands and global options, the second to the
 * subcommands and options of the command before it.
 */
export function completionScript(program: Command, shell: 'bash' | 'zsh'): string {
  const cases = program.commands
    .map((c) => `    ${c.name()}) opts="${words(c).join(' ')}" ;;`)
    .join('\n');
  const body = `_sluicectl() {
  local cur prev opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  if [ "$COMP_CWORD" -le 1 ]; then
    opts="${words(program).join(' ')}"
  else
    case "\${COMP_WORDS[1]}" in
${cases}
    *) opts="" ;;
    esac
  fi
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _sluicectl sluicectl
`;
  return shell === 'zsh' ? `autoload -U +X bashcompinit && bashcompinit\n${body}` : body;
}
