// The fixture of pi-omni-audit.test.ts: two OmniBehavior users with personal information planted in their records
// and in a run's raw output, next to placeholders, written to a temp folder.
import { video, writeOmniFolder, type FolderUser } from './omni-folder';

export const u1: FolderUser = {
  id: 'u1',
  profile: "Female, 25-30, bachelor's degree. Email huamao.studio@example.com",
  records: [
    video('2025-03-01 10:00:00', {
      caption: '联系电话 13800138000 home cooking',
      play_cnt: '13800138000',
      upload_timestamp: '2025-02-01 10:00:00',
    }),
    video('2025-03-01 11:00:00', { caption: '订单号 13800138000', ocr: '<PHONE> call me', asr: 'server 203.0.113.57' }),
    {
      type: 'Advertisement',
      timestamp: '2025-03-01',
      context: {
        product: 'Car insurance',
        caption: 'version 10.0.0.1',
        duration: 20,
        ocr_text: '身份证 110105198805122136',
        asr_text: null,
      },
      action: [{ type: 'watch', play_duration: 3 }],
    },
    {
      type: 'Live Streaming',
      timestamp: '2025-03-01 13:00:00',
      context: { live_title: '沪AD12345 挪车', live_cover_content: '<EMAIL>', viewer_cnt: 5 },
      action: [{ type: 'watch', play_duration: 30 }],
    },
    {
      type: 'E-commerce',
      timestamp: '2025-03-01 14:00:00',
      context: { item_title: 'rice cooker', item_desc: '卡号 6222 0202 0012 3456 788', item_price: 99.5 },
      action: [{ type: 'cart', is_add_to_cart: 1 }],
    },
    {
      type: 'Search Behavior',
      timestamp: '2025-03-01 15:00:00',
      action: [
        { type: 'search', keyword: '13800138000' },
        { type: 'show', show_cnt: 3 },
      ],
    },
    {
      type: 'Customer Service',
      timestamp: '2025-03-01 16:00:00',
      context: { item_title: 'lamp' },
      action: [
        {
          type: 'dialogue',
          content: [
            { role: 'user', text: 'my email is lin.wei@example.com' },
            { role: 'assistant', text: 'ok <CONTACT>' },
          ],
        },
      ],
    },
    video('2025-03-01 17:00:00', { caption: 'home cooking #10' }, [
      { type: 'watch', play_duration: 3 },
      { type: 'like' },
    ]),
    video('2025-03-01 18:00:00', { caption: 'sketch comedy', asr: '京A·3M7Q2 lost' }),
    video('2025-03-01 19:00:00', { caption: 'lake fishing' }),
    video('2025-03-01 20:00:00', { caption: 'after the last test action: 13912345678' }),
  ],
};
// Pretty-printed: records span lines, so a finding's line is below its record's first line.
const u2: FolderUser = {
  id: 'u2',
  profile: 'Male, 40-50.',
  pretty: true,
  records: [
    video('2025-03-02 10:00:00', { caption: 'cats' }),
    {
      type: '电商客服对话',
      timestamp: '2025-03-02 11:00:00',
      context: { item_title: 'kettle' },
      action: [
        {
          type: 'dialogue',
          content: [
            { role: 'user', text: 'hello' },
            { role: 'user', text: 'I cannot determine this. Call 13912345678.' },
          ],
        },
      ],
    },
    video('2025-03-02 12:00:00', { caption: 'dogs' }),
  ],
};

/** The two users on disk, with their tests and one run (`sim`), in a fresh temp folder; returns its path. */
export function folder(): string {
  return writeOmniFolder({
    users: [u1, u2],
    tests: [
      { user_id: 'u1', index: 7, fields: ['video_liked'] },
      { user_id: 'u1', index: 9, fields: ['video_liked'] },
      { user_id: 'u2', index: 2, fields: ['video_liked'] },
    ],
    runs: {
      sim: [
        {
          user_id: 'u1',
          index: 7,
          questions: [
            {
              type: 'binary',
              field: 'video_liked',
              true_value: 'Yes',
              predicted_value: 'Yes',
              predicted_label: 1,
              raw_output: 'Answer: Yes. Contact 13800138000',
            },
          ],
        },
        {
          user_id: 'u1',
          index: 9,
          questions: [
            {
              type: 'binary',
              field: 'video_liked',
              true_value: 'No',
              predicted_value: 'No',
              predicted_label: 0,
              raw_output: 'Answer: No. <PHONE>',
            },
          ],
        },
        {
          user_id: 'u2',
          index: 2,
          questions: [
            {
              type: 'binary',
              field: 'video_liked',
              true_value: 'No',
              predicted_value: 'No',
              predicted_label: 0,
              raw_output: 'Answer: No',
            },
          ],
        },
      ],
    },
  });
}
