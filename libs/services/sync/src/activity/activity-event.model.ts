/** A stored activity-log entry (sync.activity_events), as the readers render it. */
export interface ActivityEvent {
  id: string;
  object_type: string;
  object_id: string;
  event_type: string;
  event_date: Date;
  parent_project_id: string | null;
  parent_item_id: string | null;
  initiator_id: string;
  extra_data: Record<string, unknown>;
}
