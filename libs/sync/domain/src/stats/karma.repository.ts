import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** What karma and goals read of the user (whose row the command has locked). */
export interface KarmaState {
  readonly timezone: string;
  readonly start_day: number;
  readonly daily_goal: number;
  readonly weekly_goal: number;
  readonly days_off: number[];
  readonly vacation_mode: boolean;
  readonly karma_disabled: boolean;
  readonly karma: number;
  readonly karma_level: number;
  /** YYYY-MM-DD, or null when never reached. */
  readonly daily_goal_reached_on: string | null;
  readonly weekly_goal_reached_on: string | null;
}

export interface KarmaChange {
  readonly karma: number;
  readonly trend: 'up' | 'down';
  readonly lastChange: number;
  readonly level: number;
}

/** The karma columns of sync.users, and the completion counts goals are measured by. */
@Injectable()
export class KarmaRepository {
  async state(manager: EntityManager, userId: string): Promise<KarmaState | undefined> {
    const rows = await manager.query<KarmaState[]>(
      `SELECT timezone, start_day, daily_goal, weekly_goal, days_off, vacation_mode, karma_disabled, karma, karma_level,
              to_char(daily_goal_reached_on, 'YYYY-MM-DD') AS daily_goal_reached_on, to_char(weekly_goal_reached_on, 'YYYY-MM-DD') AS weekly_goal_reached_on
         FROM sync.users WHERE id = $1`,
      [userId],
    );
    return rows[0];
  }

  /**
   * Completions since the start of the day and of the week (instants), counted as the stats
   * count them: the user's tasks, checked and not deleted, by completion time.
   */
  async completionsSince(manager: EntityManager, userId: string, dayStart: Date, weekStart: Date): Promise<{ day: number; week: number }> {
    const [row] = await manager.query<Array<{ day: number; week: number }>>(
      `SELECT count(*) FILTER (WHERE completed_at >= $2)::int AS day, count(*) FILTER (WHERE completed_at >= $3)::int AS week
         FROM sync.items WHERE user_id = $1 AND checked AND NOT is_deleted AND completed_at >= LEAST($2::timestamptz, $3::timestamptz)`,
      [userId, dayStart, weekStart],
    );
    return { day: row?.day ?? 0, week: row?.week ?? 0 };
  }

  /** Writes a karma change; the user object changed, so it takes the command's version. */
  async setKarma(manager: EntityManager, userId: string, change: KarmaChange, version: string): Promise<void> {
    await manager.query(`UPDATE sync.users SET karma = $2, karma_trend = $3, karma_last_change = $4, karma_level = $5, version = $6 WHERE id = $1`, [
      userId,
      change.karma,
      change.trend,
      change.lastChange,
      change.level,
      version,
    ]);
  }

  async setGoalReached(manager: EntityManager, userId: string, goal: 'daily' | 'weekly', period: string): Promise<void> {
    const column = goal === 'daily' ? 'daily_goal_reached_on' : 'weekly_goal_reached_on';
    await manager.query(`UPDATE sync.users SET ${column} = $2::date WHERE id = $1`, [userId, period]);
  }
}
