// The calendar module: business days (the computed national bank holidays, and the customer's own holidays of a
// place, /api/feriados).
import { defineModule } from '../../platform/module.ts'
import { pathItems } from '../../platform/http/route-document.ts'
import { HOLIDAY_ROUTES, holidayRoutes } from './own/routes.ts'

export const calendarModule = defineModule({
  name: 'calendar',
  setup({ config, db, clock, idempotency }) {
    return {
      routes: holidayRoutes({ db, clock, idempotency, dbTimeoutMs: config.dbTimeoutMs, budget: config.rateLimits.leitura }),
      customerApiPaths: () => pathItems(Object.values(HOLIDAY_ROUTES)),
    }
  },
})
