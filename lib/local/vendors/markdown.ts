/**
 * What the tracker fakes (GitHub, GitLab, Linear) share when they read Markdown as their vendor would:
 * the lines outside fenced code blocks, where mentions, references and quick actions take effect. Each
 * fake then applies its own vendor's rules (code spans, links, commands) to these lines.
 */

/**
 * The lines of `markdown` outside fenced code blocks (fence lines excluded). A fence opens with three or
 * more backticks or tildes after at most three spaces, and closes only with the same character, at least
 * as long, and nothing else on the line; an unclosed fence runs to the end, as in CommonMark.
 */
export function linesOutsideFences(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (
        marker &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        !line.trim().slice(marker.length)
      )
        fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    lines.push(line);
  }
  return lines;
}
