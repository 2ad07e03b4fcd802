// Beside a listed checkpoint while searching: where the search words matched
// when its title does not show them ("in the prompt", "in a file path"), so a
// row that seems not to match says why it is there.
import type { Checkpoint } from '../../../shared/model.js';
import { useFilter } from '../state/filter.js';
import { useTimeline } from '../state/timeline.js';
import { usePrompts } from '../state/prompts.js';
import { searchWords, textsIn, whereMatched } from '../lib/search-texts.js';

export function MatchWhere({ checkpoint: c }: { checkpoint: Checkpoint }) {
  const text = useFilter((s) => s.filter.text);
  const pathHit = useFilter((s) => s.textPaths !== null && s.textPaths.text === s.filter.text && s.textPaths.ids.has(c.id));
  const all = useTimeline((s) => s.checkpoints);
  const prompts = usePrompts((s) => s.byId);
  const words = searchWords(text);
  if (words.length === 0) return null;
  const where = whereMatched(textsIn(all, prompts, c), words, pathHit);
  if (where === null) return null;
  return (
    <span className="row-match-where" data-testid="match-where">
      {where}
    </span>
  );
}
