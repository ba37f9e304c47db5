-- Indexes of the dashboard (`GET /app/api/dashboard`): each of its figures
-- reads one slice of one covering index instead of a million invoice rows.

-- Invoices issued per month: nature, issue day and amount.
CREATE INDEX invoices_issued_by_day ON invoices(agency_id, nature, issued_on, total_incl_cents)
    WHERE issued_on IS NOT NULL;

-- Invoices paid per month.
CREATE INDEX invoices_paid_by_day ON invoices(agency_id, nature, paid_on, total_incl_cents)
    WHERE paid_on IS NOT NULL;

-- Unpaid invoices (issued or sent) by due day, with their amount.
CREATE INDEX invoices_unpaid_by_due ON invoices(agency_id, nature, status, due_on, total_incl_cents)
    WHERE status IN ('emise', 'envoyee');

-- Credit notes issued against an invoice, with their amount.
CREATE INDEX invoices_credits_by_agency ON invoices(agency_id, nature, status, credited_invoice_id, total_incl_cents)
    WHERE credited_invoice_id IS NOT NULL;

-- Visits not done yet: the overdue ones are found among them only.
CREATE INDEX visits_not_done ON visits(agency_id, planned_for, deadline, status)
    WHERE status <> 'faite';
