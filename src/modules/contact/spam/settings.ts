// The spam rules' setting.
import { int } from '../../../platform/settings/kinds.ts'

export const SPAM_SETTINGS = {
  spamMinFillMs: int('SPAM_MIN_FILL_MS', {
    default: 3000, min: 0, max: 60_000, description: 'a site form posted sooner than this after it was served is spam',
  }),
}
