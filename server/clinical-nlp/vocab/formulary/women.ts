/** Contraception, menstrual disorders, pregnancy, fertility, menopause and breast cancer. Row format: ../formulary.ts. */
export const WOMEN = `
levonorgestrel + ethinylestradiol||oral contraceptive pill,oral contraceptive,ocp,combined pill,birth control pill|tablet||ovral l,mala d,loette,microgynon,seasonique,alesse
desogestrel + ethinylestradiol|||tablet||novelon,femilon,mircette
drospirenone + ethinylestradiol|||tablet||yasmin,yaz,crisanta
norgestimate + ethinylestradiol|||tablet||sprintec,ortho tri cyclen
norethisterone + ethinylestradiol|||tablet||loestrin,junel
cyproterone + ethinylestradiol|||tablet||krimson 35,diane 35,ginette 35
ethinylestradiol|ethinyl estradiol||tablet||
desogestrel|||tablet|0.075|cerazette
drospirenone|||tablet|4|slynd
cyproterone|||tablet|50|
norgestimate|||tablet||
levonorgestrel|||tablet,intrauterine device|0.75,1.5,52|unwanted 72,i pill,~plan b,plan b one step,mirena,kyleena
ulipristal|||tablet|30|~ella
etonogestrel|||implant|68|nexplanon
norethisterone|norethindrone||tablet|0.35,5|primolut n,regestrone,noristerat,aygestin
medroxyprogesterone|||tablet,injection|2.5,5,10,150|meprate,provera,depo provera,depo subq provera
dydrogesterone|||tablet|10|duphaston,dydroboon
progesterone||micronised progesterone,micronized progesterone|capsule,injection,gel,vaginal pessary|100,200,300,400,8%|susten,naturogest,prometrium,crinone
dienogest|||tablet|2|visanne
estradiol|||tablet,gel,patch,vaginal cream,vaginal tablet|0.5,1,2,10mcg|progynova,estrace,vagifem,climara,divigel
conjugated estrogens|||tablet,vaginal cream|0.3,0.625,1.25|premarin
conjugated estrogens + medroxyprogesterone|||tablet||prempro
tibolone|||tablet|2.5|livial
ormeloxifene|||tablet|30,60|
clomiphene|||tablet|25,50,100|siphene,fertyl,clomid
letrozole|||tablet|2.5|letroz,femara
anastrozole|||tablet|1|armotraz,arimidex
tamoxifen|||tablet|10,20|nolvadex
tranexamic acid|||tablet,injection|250,500,650,1000,100mg/ml|~pause,trapic,lysteda,cyklokapron
tranexamic acid + mefenamic acid|||tablet||pause mf,trapic mf
misoprostol|||tablet|25mcg,100mcg,200mcg|cytolog,cytotec
mifepristone|||tablet|200|mifeprex
mifepristone + misoprostol|||tablet||
methylergometrine|methylergonovine||tablet,injection|0.125,0.2mg/ml|methergine
oxytocin|||injection|5units,10units|pitocin
myo inositol|||sachet,tablet|1000,2000|
metronidazole + clotrimazole|||vaginal tablet,vaginal pessary||
clindamycin + clotrimazole|||vaginal pessary,vaginal cream||
terconazole|||vaginal cream|0.4%,0.8%|terazol
`;
